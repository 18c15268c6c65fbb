package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// serveProc is a running `memgov serve` and what it wrote to stderr.
type serveProc struct {
	cmd    *exec.Cmd
	addr   string
	mu     sync.Mutex
	stderr strings.Builder
	lines  []string // its stdout
}

func (s *serveProc) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stderr.Write(p)
}

func (s *serveProc) logs() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stderr.String()
}

// startServe starts memgov serve on a loopback port and waits until it
// has said every line of its start (want of them).
func (c *cli) startServe(t *testing.T, want int, args ...string) *serveProc {
	t.Helper()
	s := &serveProc{cmd: exec.Command(bin, append([]string{"serve", "--listen", "127.0.0.1:0"}, args...)...)}
	s.cmd.Env = c.env
	s.cmd.Stderr = s
	stdout, _ := s.cmd.StdoutPipe()
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.cmd.Process.Signal(syscall.SIGINT)
		done := make(chan struct{})
		go func() { s.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			s.cmd.Process.Kill()
		}
	})
	re := regexp.MustCompile(`http://(\S+)`)
	sc := bufio.NewScanner(stdout)
	for len(s.lines) < want && sc.Scan() {
		s.lines = append(s.lines, sc.Text())
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			s.addr = m[1]
		}
	}
	if s.addr == "" || len(s.lines) < want {
		t.Fatalf("serve did not start: %v %s", s.lines, s.logs())
	}
	go io.Copy(io.Discard, stdout)
	return s
}

func (s *serveProc) do(t *testing.T, method, path, token, body string) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, "http://"+s.addr+path, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (c *cli) token(t *testing.T, principal string) string {
	t.Helper()
	var tok struct {
		Token string `json:"token"`
	}
	if err := json.Unmarshal([]byte(c.ok("", "token", "create", "--principal", principal, "--json")), &tok); err != nil {
		t.Fatal(err)
	}
	return tok.Token
}

// A real memgov serve logs one line per request, answers the contract's
// errors, hides /healthz figures from anonymous callers, and keeps a
// notification its receiver refuses after every retry as a dead letter
// that memgov webhook dead-letters lists.
func TestCLIServeLogsRequestsAndKeepsDeadLetters(t *testing.T) {
	c := newCLI(t)
	c.setup()
	// Every executor write waits for a person at once (SYNC_BLOCK).
	if err := os.WriteFile(c.db+".policy.yaml", []byte("risk:\n  sync_from: 0.01\n  async_from: 0.005\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tok := c.token(t, "support-bot")
	var mu sync.Mutex
	calls := 0
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		mu.Unlock()
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer recv.Close()
	secret := filepath.Join(t.TempDir(), "hook.secret")
	os.WriteFile(secret, []byte("a-webhook-secret-of-some-length"), 0o600)
	s := c.startServe(t, 2, "--webhook", recv.URL, "--webhook-secret-file", secret, "--webhook-attempts", "2", "--webhook-backoff", "10ms")

	if code, body := s.do(t, "GET", "/healthz", "", ""); code != 200 || strings.Contains(body, "log_size") {
		t.Errorf("anonymous /healthz = %d %s", code, body)
	}
	if code, body := s.do(t, "GET", "/healthz", tok, ""); code != 200 || !strings.Contains(body, "log_size") {
		t.Errorf("/healthz with a token = %d %s", code, body)
	}
	if code, body := s.do(t, "GET", "/v1/memories", tok, ""); code != 400 || !strings.Contains(body, "memory_ref is required") {
		t.Errorf("GET /v1/memories without memory_ref = %d %s", code, body)
	}
	if code, body := s.do(t, "GET", "/v1/memories/../../etc/passwd", tok, ""); code != 404 || !strings.Contains(body, `"NOT_FOUND"`) {
		t.Errorf("dotted path = %d %s", code, body)
	}
	write := `{"memory_ref":"acme/support-bot","key":"c7/lang","content":{"text":"Customer 7 wants invoices in German."}}`
	code, body := s.do(t, "POST", "/v1/memories?wait=false", tok, write)
	if code != 202 || !strings.Contains(body, `"SYNC_BLOCK"`) || !strings.Contains(body, `"next"`) {
		t.Fatalf("SYNC write = %d %s", code, body)
	}

	// The dispatcher ticks every 2 s; the dead letter appears within a few.
	var dead []struct {
		URL       string          `json:"url"`
		EventType string          `json:"event_type"`
		Attempts  int             `json:"attempts"`
		Error     string          `json:"error"`
		Body      json.RawMessage `json:"body"`
	}
	deadline := time.Now().Add(15 * time.Second)
	for len(dead) == 0 && time.Now().Before(deadline) {
		if err := json.Unmarshal([]byte(c.ok("", "webhook", "dead-letters", "--json")), &dead); err != nil {
			t.Fatal(err)
		}
		if len(dead) == 0 {
			time.Sleep(200 * time.Millisecond) // waits for the server's own 2 s tick, not for time to pass in the test
		}
	}
	if len(dead) != 1 || dead[0].URL != recv.URL || dead[0].EventType != "review.created" || dead[0].Attempts != 2 ||
		!strings.Contains(dead[0].Error, "503") || strings.Contains(string(dead[0].Body), "German") {
		t.Fatalf("dead letters = %+v", dead)
	}
	if out := c.ok("", "webhook", "dead-letters"); !strings.Contains(out, "review.created") || !strings.Contains(out, recv.URL) {
		t.Errorf("dead-letters table:\n%s", out)
	}

	// One log line per request: method, path, status, duration, principal.
	logs := s.logs()
	lineRE := regexp.MustCompile(`msg=request method=(\S+) path=(\S+) status=(\d+) duration=\S+ principal=(\S+)`)
	var got []string
	for _, l := range strings.Split(logs, "\n") {
		if m := lineRE.FindStringSubmatch(l); m != nil {
			got = append(got, m[1]+" "+m[2]+" "+m[3]+" "+m[4])
		}
	}
	want := []string{
		"GET /healthz 200 -", "GET /healthz 200 support-bot", "GET /v1/memories 400 support-bot",
		"GET /v1/memories/../../etc/passwd 404 -", "POST /v1/memories 202 support-bot",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("request log lines:\n%s\nwant:\n%s\nstderr:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), logs)
	}
}
