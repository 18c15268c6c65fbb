package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// bin is the memgov binary built once for every CLI test.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "memgov-cli")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "memgov")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building memgov:", err)
		os.Exit(1)
	}
	code := m.Run()
	stopPostgres() // pg_cli_test.go
	os.RemoveAll(dir)
	os.Exit(code)
}

// cli runs memgov against one database.
type cli struct {
	t   *testing.T
	db  string
	env []string
}

func newCLI(t *testing.T) *cli {
	c := &cli{t: t, db: filepath.Join(t.TempDir(), "memgov.db")}
	c.env = append(os.Environ(), "MEMGOV_DB="+c.db, "MEMGOV_KEY=", "NO_COLOR=1")
	return c
}

// run returns stdout, stderr and the exit code.
func (c *cli) run(stdin string, args ...string) (string, string, int) {
	c.t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = c.env
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		c.t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// ok runs a command that must succeed.
func (c *cli) ok(stdin string, args ...string) string {
	c.t.Helper()
	out, errOut, code := c.run(stdin, args...)
	if code != 0 {
		c.t.Fatalf("memgov %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

func (c *cli) setup() {
	c.ok("", "init")
	for _, p := range [][]string{
		{"support-bot", "executor", "acme"}, {"billing-agent", "orchestrator", "acme"}, {"research-agent", "orchestrator", "globex"},
		{"policy-verifier", "verifier", "acme"}, {"jane", "curator", "*"},
	} {
		c.ok("", "principal", "add", "--id", p[0], "--role", p[1], "--tenant", p[2])
	}
}

func TestCLIErrorsAndUsage(t *testing.T) {
	c := newCLI(t)
	_, errOut, code := c.run("", "list", "acme/x")
	if code != 1 || !strings.Contains(errOut, "memgov init") || strings.Contains(errOut, "goroutine") {
		t.Fatalf("missing database: exit %d, %q", code, errOut)
	}
	c.setup()
	for _, args := range [][]string{{"get", "acme/x"}, {"list"}, {"rollback", "v"}, {"at", "acme/x"}, {"principal", "add", "--id", "x", "--role", "boss", "--tenant", "a"}, {"list", "acme/x", "--limit", "-1"}, {"nosuch"}} {
		_, errOut, code := c.run("", args...)
		if code != 2 {
			t.Errorf("memgov %s: exit %d (%s), want 2", strings.Join(args, " "), code, errOut)
		}
	}
	if _, _, code := c.run("", "--help"); code != 0 {
		t.Errorf("--help exit %d", code)
	}
	junk := filepath.Join(t.TempDir(), "junk.db")
	if err := os.WriteFile(junk, []byte(strings.Repeat("not sqlite ", 50)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(junk+".key", []byte(strings.Repeat("k", 64)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = c.run("", "--db", junk, "list", "acme/x")
	if code != 1 || !strings.Contains(errOut, "not a valid memgov database") {
		t.Fatalf("corrupt database: exit %d, %q", code, errOut)
	}
}

func TestCLIEveryCommandHasHelpWithExample(t *testing.T) {
	c := newCLI(t)
	for _, args := range [][]string{{"init"}, {"principal", "add"}, {"principal", "list"}, {"principal", "reinstate"}, {"get"}, {"list"}, {"history"},
		{"at"}, {"rollback"}, {"pin"}, {"unpin"}, {"audit", "root"}, {"audit", "verify"}, {"audit", "checkpoint"}, {"audit", "prove"},
		{"admin", "rebuild"}, {"version"}, {"write"}, {"review", "list"}, {"review", "approve"}, {"review", "reject"}, {"review", "release"}, {"policy", "show"}} {
		out := c.ok("", append(args, "--help")...)
		if !strings.Contains(out, "Examples:") {
			t.Errorf("memgov %s --help has no example", strings.Join(args, " "))
		}
	}
}

type casesFile struct {
	Cases []struct {
		Name    string            `json:"name"`
		Policy  string            `json:"policy"`
		Setup   []json.RawMessage `json:"setup"`
		Request json.RawMessage   `json:"request"`
		Wait    bool              `json:"wait"`
		Status  string            `json:"status"`
		Reason  string            `json:"reason"`
		Detail  string            `json:"detail"`
		Exit    int               `json:"exit"`
	} `json:"cases"`
}

// TestCLIWriteReasonCodes drives every case of testdata/pipeline/cases.json
// through `memgov write --json` and checks the status, reason and exit code.
func TestCLIWriteReasonCodes(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "pipeline", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cf casesFile
	if err := json.Unmarshal(b, &cf); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cf.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			c := newCLI(t)
			c.setup()
			if tc.Policy != "" {
				if err := os.WriteFile(c.db+".policy.yaml", []byte(tc.Policy), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			for _, s := range tc.Setup {
				if _, errOut, code := c.run(string(s), "write", "--json"); code != 0 && code != 4 {
					t.Fatalf("setup write: exit %d %s", code, errOut)
				}
			}
			args := []string{"write", "--json"}
			if tc.Wait {
				args = append(args, "--wait")
			}
			out, errOut, code := c.run(string(tc.Request), args...)
			var res struct{ Status, Reason, Detail string }
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("output %q (stderr %q): %v", out, errOut, err)
			}
			if res.Status != tc.Status || res.Reason != tc.Reason || code != tc.Exit {
				t.Fatalf("got %s %s exit %d (%s), want %s %s exit %d", res.Status, res.Reason, code, res.Detail, tc.Status, tc.Reason, tc.Exit)
			}
			if tc.Detail != "" && !strings.Contains(res.Detail, tc.Detail) {
				t.Errorf("detail %q does not mention %q", res.Detail, tc.Detail)
			}
		})
	}
}
