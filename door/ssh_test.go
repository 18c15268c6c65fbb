package door

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// screen collects what an SSH session prints.
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// waitFor waits until the screen shows want (the console redraws; this only
// waits for output, it does not pass time for the code under test).
func (s *screen) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(s.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the console never showed %q; it showed:\n%s", want, s.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func newSigner(t *testing.T) (gossh.Signer, []byte) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return signer, gossh.MarshalAuthorizedKey(signer.PublicKey())
}

func TestReviewConsoleOverSSH(t *testing.T) {
	e := newEnv(t, "", Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	janeKey, janePub := newSigner(t)
	if _, err := e.eng.AddSSHKeys(ctx, "jane", janePub, "test"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.eng.AddPrincipal(ctx, memgov.Principal{ID: "bob", Role: memgov.Curator, Tenant: "acme"}, "test"); err != nil {
		t.Fatal(err)
	}
	bobKey, bobPub := newSigner(t)
	if _, err := e.eng.AddSSHKeys(ctx, "bob", bobPub, "test"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.eng.AddSSHKeys(ctx, "bot", janePub, "test"); err == nil {
		t.Fatal("one key was authorised for two principals")
	}
	strangerKey, _ := newSigner(t)

	code, res := e.do("bot", "POST", "/v1/memories", writeReq("acme/bot", "customer-42/channel", "Customer 42 prefers email."))
	if code != 202 {
		t.Fatalf("write = %d %v", code, res)
	}
	reviewID := str(res, "review_id")

	hostKey := filepath.Join(filepath.Dir(e.db), "memgov.db.ssh_host_ed25519")
	srv, err := NewSSH(SSHConfig{Engine: e.eng, HostKeyPath: hostKey, DBName: "memgov.db", Poll: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- ServeSSH(ctx, srv, ln) }()

	// The host key was generated beside the database, readable by its owner only.
	fi, err := os.Stat(hostKey)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("host key mode = %v, want 0600", fi.Mode().Perm())
	}
	hostPriv, err := os.ReadFile(hostKey)
	if err != nil {
		t.Fatal(err)
	}
	hostSigner, err := gossh.ParsePrivateKey(hostPriv)
	if err != nil {
		t.Fatal(err)
	}
	dial := func(user string, key gossh.Signer) (*gossh.Client, error) {
		return gossh.Dial("tcp", ln.Addr().String(), &gossh.ClientConfig{User: user, Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
			HostKeyCallback: gossh.FixedHostKey(hostSigner.PublicKey()), Timeout: 10 * time.Second})
	}

	// An unknown key is refused at the handshake, whatever user it claims.
	if c, err := dial("jane", strangerKey); err == nil {
		c.Close()
		t.Fatal("an unknown key was let in")
	} else if !strings.Contains(err.Error(), "unable to authenticate") {
		t.Fatalf("unknown key: %v", err)
	}

	// Jane's and Bob's keys open the console as themselves, at the same time
	// (the SSH user name is not the identity).
	console := func(key gossh.Signer) (*screen, io.Writer) {
		client, err := dial("anyone", key)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { client.Close() })
		sess, err := client.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		if err := sess.RequestPty("xterm-256color", 40, 140, gossh.TerminalModes{}); err != nil {
			t.Fatal(err)
		}
		scr := &screen{}
		sess.Stdout = scr
		stdin, err := sess.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := sess.Shell(); err != nil {
			t.Fatal(err)
		}
		return scr, stdin
	}
	scr, stdin := console(janeKey)
	bobScr, bob := console(bobKey)
	scr.waitFor(t, "jane")
	bobScr.waitFor(t, "bob")
	scr.waitFor(t, "customer-42/channel")
	bobScr.waitFor(t, "customer-42/channel")

	// Jane opens the review: her claim keeps Bob off it.
	stdin.Write([]byte("\r"))
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if r, _ := e.eng.Reviews().Review(ctx, reviewID); r.ClaimHolder == "jane" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("jane's claim never landed; her console showed:\n%s", scr.String())
		}
	}
	bob.Write([]byte{0x12})              // ctrl+r: refresh
	bobScr.waitFor(t, "claimed by jane") // the rest of the line wraps with the pane's width
	bob.Write([]byte("ay"))              // bob tries anyway: the decision below stays jane's

	stdin.Write([]byte("a"))
	scr.waitFor(t, "Approve")
	stdin.Write([]byte("\r")) // questions confirm with enter, never with the action's own key

	deadline := time.Now().Add(20 * time.Second)
	for {
		r, err := e.eng.Reviews().Review(ctx, reviewID)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status == memgov.ReviewApproved {
			if r.DecidedBy != "jane" {
				t.Fatalf("approved by %q, want jane", r.DecidedBy)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the review was not approved over SSH; the console showed:\n%s", scr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	entries, err := e.eng.Audit().LogTail(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	approved := false
	for _, le := range entries {
		if le.Op == oplog.Approve && le.Actor == "jane" {
			approved = true
		}
	}
	if !approved {
		t.Error("no APPROVE entry by jane in the log")
	}
	stdin.Write([]byte("q"))
	cancel()
	if err := <-served; err != nil {
		t.Fatalf("serve: %v", err)
	}
}
