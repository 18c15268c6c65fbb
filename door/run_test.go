package door

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Open binds every door memgov serve opens; Run serves them all until its
// context ends, then returns nil and leaves nothing listening.
func TestOpenAndRunServeEveryDoor(t *testing.T) {
	e := newEnv(t, syncPolicy, Config{})
	ctx := context.Background()
	secret := []byte("webhook-secret-0123456789")
	type delivery struct{ agent, event string }
	got := make(chan delivery, 16)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		got <- delivery{r.Header.Get("User-Agent"), r.Header.Get(HeaderEvent)}
	}))
	defer recv.Close()

	dir := t.TempDir()
	doors, err := Open(ctx, ServeOptions{
		HTTP:   Config{Engine: e.eng, Version: "9.9.9-test", Poll: 10 * time.Millisecond},
		Listen: "127.0.0.1:0", Grace: 5 * time.Second,
		SSHListen: "127.0.0.1:0", SSHHostKeyPath: filepath.Join(dir, "host_ed25519"), DBName: "memgov.db",
		Webhooks: []Webhook{{URL: recv.URL, Secret: secret}}, WebhookCursorFile: filepath.Join(dir, "cursor"),
		WebhookInterval: 10 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if doors.HTTPAddr == nil || doors.SSHAddr == nil || doors.Webhooks != 1 {
		t.Fatalf("opened doors: http %v, ssh %v, webhooks %d", doors.HTTPAddr, doors.SSHAddr, doors.Webhooks)
	}
	rctx, stop := context.WithCancel(ctx)
	ran := make(chan error, 1)
	go func() { ran <- doors.Run(rctx) }()

	// HTTP: health and the JSON API.
	resp, err := http.Get("http://" + doors.HTTPAddr.String() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	var health map[string]any
	json.NewDecoder(resp.Body).Decode(&health)
	resp.Body.Close()
	if resp.StatusCode != 200 || health["status"] != "ok" {
		t.Fatalf("healthz = %d %v", resp.StatusCode, health)
	}

	// MCP over HTTP names the version it was given.
	c := mcp.NewClient(&mcp.Implementation{Name: "door-test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + doors.HTTPAddr.String() + "/mcp",
		HTTPClient: &http.Client{Transport: bearerTransport{e.tokens["planner"]}}, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := cs.InitializeResult().ServerInfo.Version; v != "9.9.9-test" {
		t.Errorf("MCP server version = %q, want 9.9.9-test", v)
	}
	cs.Close()

	// SSH: the console's server greets with an SSH banner.
	conn, err := net.Dial("tcp", doors.SSHAddr.String())
	if err != nil {
		t.Fatal(err)
	}
	banner, err := bufio.NewReader(conn).ReadString('\n')
	conn.Close()
	if err != nil || !strings.HasPrefix(banner, "SSH-2.0-") {
		t.Fatalf("ssh banner = %q, %v", banner, err)
	}

	// Webhooks: a SYNC_BLOCK write after Open is announced, signed by this version.
	if code, res := e.do("bot", "POST", "/v1/memories?wait=false", writeReq("acme/bot", "refund/limit", "Refunds up to 500 need no second signature.")); code != 202 {
		t.Fatalf("sync write = %d %v", code, res)
	}
	select {
	case d := <-got:
		if d.agent != "memgov-webhook/9.9.9-test" || d.event != "review.created" {
			t.Errorf("delivery: User-Agent %q, event %q", d.agent, d.event)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no webhook delivery")
	}

	stop()
	if err := <-ran; err != nil {
		t.Fatalf("Run after its context ended = %v, want nil", err)
	}
	for _, a := range []net.Addr{doors.HTTPAddr, doors.SSHAddr} {
		if conn, err := net.Dial("tcp", a.String()); err == nil {
			conn.Close()
			t.Errorf("%s still accepts connections after Run returned", a)
		}
	}
}

// A door that cannot open leaves none of the others bound.
func TestOpenFailureLeavesNothingBound(t *testing.T) {
	e := newEnv(t, "", Config{})
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	httpAddr := free.Addr().String()
	free.Close()

	_, err = Open(context.Background(), ServeOptions{HTTP: Config{Engine: e.eng}, Listen: httpAddr,
		SSHListen: taken.Addr().String(), SSHHostKeyPath: filepath.Join(t.TempDir(), "host_ed25519")})
	if err == nil {
		t.Fatal("Open succeeded with the SSH address taken")
	}
	ln, err := net.Listen("tcp", httpAddr)
	if err != nil {
		t.Fatalf("the HTTP address stayed bound after Open failed: %v", err)
	}
	ln.Close()

	if _, err := Open(context.Background(), ServeOptions{Listen: "127.0.0.1:0"}); err == nil || !strings.Contains(err.Error(), "Engine") {
		t.Errorf("Open without an engine = %v, want an error naming the engine", err)
	}
}

// Run reports a door's own failure (not a shutdown) as its error.
func TestRunReportsADoorsFailure(t *testing.T) {
	e := newEnv(t, "", Config{})
	doors, err := Open(context.Background(), ServeOptions{HTTP: Config{Engine: e.eng}, Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	doors.ln.Close() // the listener fails under the server
	err = doors.Run(context.Background())
	if err == nil || !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Run over a closed listener = %v, want net.ErrClosed", err)
	}
}
