package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// The README's shell blocks are run in order, as a reader would paste them,
// on a scratch database. The only commands not run are those that open a
// terminal UI, start a server (or talk to one), or need a program memgov does
// not ship; each is listed in readmeSkips with the reason.
var readmeSkips = []struct{ prefix, why string }{
	{"export PATH=", "the set-up: go install and the demo's TUI; this test builds memgov itself"},
	{"go test ", "the set-up's test run: this test is part of it"},
	{"memgov demo", "opens the demo's TUI"},
	{"memgov tui", "opens the TUI"},
	{"memgov serve", "starts a server that runs until stopped"},
	{"memgov bench serve", "starts memgov serve's HTTP and MCP doors to measure them"},
	{"ssh ", "talks to memgov serve"},
	{"curl ", "talks to memgov serve"},
	{"ollama ", "needs the Ollama model server"},
	{"createdb ", "needs a PostgreSQL server (TestCLIPostgresBasics and TestCLIMigrateDemoToPostgresAndBack run memgov on a throwaway one)"},
	{"memgov --db postgres", "needs a PostgreSQL server (TestCLIPostgresBasics and TestCLIPostgresTwoServesOneKilled run these on a throwaway one)"},
	{"memgov admin reembed", "needs the model server the policy above names"},
	{"memgov bench gates --corpus testdata/corpora/duplicate.jsonl", "runs against the model server the policy above names"},
}

// readmeLongRunning are commands that run until stopped: each must still be
// running, without an error, after a moment.
var readmeLongRunning = []string{"memgov events --follow"}

// Placeholders the README uses for identifiers printed by earlier commands,
// and how this test fills them:
//   - ITEM_ID, VERSION_ID: the last item_id and version_id an earlier command printed;
//   - ID after "review": the first review of `memgov review list --json`;
//   - ID after "drift": the first episode of `memgov drift list --json`;
//   - TOKEN_ID: the first token of `memgov token list --json`.
//
// Benchmark sizes (--items 100000) are scaled to --items 300 (and bench
// write's measured writes and lookups to 100 and 50), so that the test checks
// that the command works, not how fast the machine is.
var readmeItems = regexp.MustCompile(`--items [0-9]+`)

// readmeCommands returns the commands of the README's ```sh blocks, in order,
// with continuation lines and here-documents joined to their command.
func readmeCommands(t *testing.T, readme []byte) []string {
	t.Helper()
	var cmds []string
	in := false
	var heredoc string
	var cur strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(readme))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !in && strings.HasPrefix(line, "```sh"):
			in = true
			continue
		case in && heredoc == "" && strings.HasPrefix(line, "```"):
			in = false
			continue
		case !in:
			continue
		}
		if heredoc != "" {
			cur.WriteString("\n" + line)
			if strings.TrimSpace(line) == heredoc {
				heredoc = ""
				cmds = append(cmds, cur.String())
				cur.Reset()
			}
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if cur.Len() > 0 {
			cur.WriteString("\n")
		}
		cur.WriteString(line)
		if m := regexp.MustCompile(`<<-?'?([A-Z]+)'?`).FindStringSubmatch(line); m != nil {
			heredoc = m[1]
			continue
		}
		if strings.HasSuffix(strings.TrimSpace(stripComment(line)), `\`) || openQuote(cur.String()) {
			continue
		}
		cmds = append(cmds, cur.String())
		cur.Reset()
	}
	if in || heredoc != "" || cur.Len() > 0 {
		t.Fatalf("README.md: unterminated shell block or here-document")
	}
	return cmds
}

// openQuote reports whether s ends inside a quoted string (a command that
// continues on the next line).
func openQuote(s string) bool {
	var q rune
	comment := false
	prev := ' '
	for _, r := range s {
		switch {
		case comment:
			comment = r != '\n'
		case q != 0:
			if r == q {
				q = 0
			}
		case r == '\'' || r == '"':
			q = r
		case r == '#' && (prev == ' ' || prev == '\n'):
			comment = true
		}
		prev = r
	}
	return q != 0
}

// stripComment drops a trailing "# ..." comment that is not inside quotes.
func stripComment(line string) string {
	var q rune
	for i, r := range line {
		switch {
		case q != 0:
			if r == q {
				q = 0
			}
		case r == '\'' || r == '"':
			q = r
		case r == '#' && (i == 0 || line[i-1] == ' '):
			return line[:i]
		}
	}
	return line
}

func TestREADMERuns(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	cmds := readmeCommands(t, readme)
	if len(cmds) < 40 {
		t.Fatalf("found %d commands in README.md; the extraction is broken", len(cmds))
	}
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519.pub"), ssh.MarshalAuthorizedKey(sp), 0o600); err != nil {
		t.Fatal(err)
	}
	testdata, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(testdata, filepath.Join(dir, "testdata")); err != nil {
		t.Fatal(err)
	}
	env := []string{
		"PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home, "XDG_DATA_HOME=" + filepath.Join(dir, "data"), "NO_COLOR=1", "USER=readme",
		"MEMGOV_DB=" + filepath.Join(dir, "memgov.db"), "MEMGOV_KEY=",
	}
	shell := func(ctx context.Context, script string) *exec.Cmd {
		c := exec.CommandContext(ctx, "bash", "-o", "pipefail", "-e", "-c", script)
		c.Dir, c.Env = dir, env
		return c
	}
	memgovJSON := func(args ...string) []map[string]any {
		c := exec.Command(bin, args...)
		c.Dir, c.Env = dir, env
		out, err := c.Output()
		if err != nil {
			t.Fatalf("memgov %s: %v", strings.Join(args, " "), err)
		}
		var list []map[string]any
		if err := json.Unmarshal(out, &list); err != nil {
			var obj map[string]any
			if err2 := json.Unmarshal(out, &obj); err2 != nil {
				t.Fatalf("memgov %s: not JSON: %v\n%s", strings.Join(args, " "), err, out)
			}
			for _, v := range obj {
				if a, ok := v.([]any); ok {
					for _, e := range a {
						if m, ok := e.(map[string]any); ok {
							list = append(list, m)
						}
					}
				}
			}
		}
		return list
	}
	first := func(cmd, field string, args ...string) string {
		for _, m := range memgovJSON(args...) {
			for _, f := range strings.Split(field, ",") {
				if s, _ := m[f].(string); s != "" {
					return s
				}
			}
		}
		t.Fatalf("%s: nothing to fill its placeholder with: `memgov %s` lists none", cmd, strings.Join(args, " "))
		return ""
	}
	seen := map[string]string{} // item_id, version_id: the last printed
	record := func(out []byte) {
		for _, k := range []string{"item_id", "version_id"} {
			re := regexp.MustCompile(`"` + k + `":\s*"([^"]+)"`)
			if ms := re.FindAllSubmatch(out, -1); ms != nil {
				seen[k] = string(ms[len(ms)-1][1])
			}
		}
	}
	word := func(w string) *regexp.Regexp { return regexp.MustCompile(`\b` + w + `\b`) }
	// a shell variable set by one command is there for the next, as in a
	// reader's shell
	var prelude strings.Builder
	assignment := regexp.MustCompile(`^(export )?[A-Z_]+=`)
	// exit codes the README documents on a command's line ("exit 0/3/4/5")
	documented := regexp.MustCompile(`exit ([0-9](?:/[0-9])*)`)
	ran := 0
	for _, cmd := range cmds {
		skip := ""
		for _, s := range readmeSkips {
			if strings.HasPrefix(cmd, s.prefix) {
				skip = s.why
			}
		}
		if strings.TrimSpace(stripComment(cmd)) == "memgov" {
			skip = "opens the TUI"
		}
		if skip != "" {
			t.Logf("skipped (%s): %s", skip, cmd)
			continue
		}
		script := readmeItems.ReplaceAllString(cmd, "--items 300")
		if strings.HasPrefix(cmd, "memgov bench write ") {
			script = strings.Replace(script, "--items 300", "--items 300 --writes 100 --lookups 50 --recall-queries 20", 1)
		}
		for _, ph := range []struct{ name, key string }{{"ITEM_ID", "item_id"}, {"VERSION_ID", "version_id"}} {
			if word(ph.name).MatchString(stripComment(script)) {
				if seen[ph.key] == "" {
					t.Fatalf("%s: no earlier command printed a %s", cmd, ph.key)
				}
				script = word(ph.name).ReplaceAllString(script, seen[ph.key])
			}
		}
		if word("TOKEN_ID").MatchString(stripComment(script)) {
			script = word("TOKEN_ID").ReplaceAllString(script, first(cmd, "id", "token", "list", "--json"))
		}
		if word("ID").MatchString(stripComment(script)) {
			switch {
			case strings.HasPrefix(cmd, "memgov review "):
				script = word("ID").ReplaceAllString(script, first(cmd, "review_id", "review", "list", "--json"))
			case strings.Contains(cmd, "memgov drift "):
				script = word(`ack ID`).ReplaceAllString(script, "ack "+first(cmd, "drift_id", "drift", "list", "--json"))
			}
		}
		long := false
		for _, p := range readmeLongRunning {
			long = long || strings.HasPrefix(cmd, p)
		}
		ran++
		if long {
			ctx, cancel := context.WithCancel(context.Background())
			c := shell(ctx, prelude.String()+script)
			var errb bytes.Buffer
			c.Stderr = &errb
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- c.Wait() }()
			select {
			case err := <-done:
				cancel()
				t.Fatalf("README: %s\nstopped at once: %v\n%s", cmd, err, errb.String())
			case <-time.After(2 * time.Second):
			}
			cancel()
			<-done
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		c := shell(ctx, prelude.String()+script)
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		began := time.Now()
		err := c.Run()
		cancel()
		if d := time.Since(began); d > 5*time.Second {
			t.Logf("%.1fs: %s", d.Seconds(), cmd)
		}
		if err != nil {
			code := -1
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			}
			allowed := false
			if m := documented.FindStringSubmatch(cmd[len(stripComment(cmd)):]); m != nil && code > 0 {
				allowed = slices.Contains(strings.Split(m[1], "/"), strconv.Itoa(code))
			}
			if allowed {
				t.Logf("exit %d, as the README documents: %s", code, cmd)
				record(out.Bytes())
				continue
			}
			t.Fatalf("README: %s\nran as: %s\nexit %d\nstdout:\n%s\nstderr:\n%s", cmd, script, code, out.String(), errb.String())
		}
		record(out.Bytes())
		if assignment.MatchString(cmd) {
			prelude.WriteString(cmd + "\n")
		}
	}
	t.Logf("ran %d of the README's %d commands", ran, len(cmds))
}

// notFoundJSON reports whether a --json read answered "nothing visible": exit
// 1 with {"error": "not_found"} on stdout.
func notFoundJSON(out string, code int) bool {
	var e struct {
		Error  string `json:"error"`
		Detail string `json:"detail"`
	}
	return code == exitError && json.Unmarshal([]byte(out), &e) == nil && e.Error == "not_found" && e.Detail != ""
}
