package main

import (
	"bufio"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

func TestCLITokensAndServe(t *testing.T) {
	c := newCLI(t)
	c.setup()

	// Tokens: shown once as JSON, listed without the token, refused for an unknown principal.
	var tok struct {
		Token     string `json:"token"`
		Principal string `json:"principal"`
		ID        string `json:"id"`
	}
	if err := json.Unmarshal([]byte(c.ok("", "token", "create", "--principal", "billing-agent", "--ttl", "30d", "--json", "--by", "ops-amy", "--reason", "agent rollout")), &tok); err != nil {
		t.Fatal(err)
	}
	if tok.Principal != "billing-agent" || !strings.HasPrefix(tok.Token, "mgv_") || tok.ID == "" {
		t.Fatalf("token create = %+v", tok)
	}
	if list := c.ok("", "token", "list"); !strings.Contains(list, tok.ID) || strings.Contains(list, tok.Token) || !strings.Contains(list, "live") {
		t.Fatalf("token list:\n%s", list)
	}
	if _, errOut, code := c.run("", "token", "create", "--principal", "nobody"); code == 0 || !strings.Contains(errOut, "not a registered principal") {
		t.Fatalf("token for an unknown principal: exit %d %s", code, errOut)
	}
	if _, _, code := c.run("", "token", "create", "--principal", "jane", "--ttl", "soon"); code != 2 {
		t.Fatalf("bad ttl: exit %d", code)
	}
	c.ok("", "audit", "verify")
	for _, f := range []string{c.db, c.db + "-wal"} {
		if raw, err := os.ReadFile(f); err == nil && strings.Contains(string(raw), tok.Token) {
			t.Fatalf("%s holds the token", f)
		}
	}

	// An SSH key for a reviewer.
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	signer, _ := ssh.NewSignerFromKey(priv)
	keyFile := filepath.Join(t.TempDir(), "jane.pub")
	os.WriteFile(keyFile, ssh.MarshalAuthorizedKey(signer.PublicKey()), 0o600)
	if out := c.ok("", "principal", "add", "--id", "jane", "--role", "curator", "--tenant", "*", "--ssh-key", keyFile); !strings.Contains(out, "authorised SSH key SHA256:") {
		t.Fatalf("principal add --ssh-key: %s", out)
	}

	// serve on loopback ports chosen by the system.
	cmd := exec.Command(bin, "serve", "--listen", "127.0.0.1:0", "--ssh", "127.0.0.1:0")
	cmd.Env = c.env
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	httpRE, sshRE := regexp.MustCompile(`http://(\S+)`), regexp.MustCompile(`ssh (\S+)`)
	var httpAddr, sshAddr string
	sc := bufio.NewScanner(stdout)
	for (httpAddr == "" || sshAddr == "") && sc.Scan() {
		if m := httpRE.FindStringSubmatch(sc.Text()); m != nil {
			httpAddr = m[1]
		}
		if m := sshRE.FindStringSubmatch(sc.Text()); m != nil {
			sshAddr = m[1]
		}
	}
	if httpAddr == "" || sshAddr == "" {
		t.Fatalf("serve did not say where it listens: %s", stderr.String())
	}
	go io.Copy(io.Discard, stdout)

	get := func(path, token string) (int, string) {
		req, _ := http.NewRequest("GET", "http://"+httpAddr+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/healthz", ""); code != 200 || !strings.Contains(body, `"ok"`) {
		t.Fatalf("healthz = %d %s", code, body)
	}
	if code, body := get("/v1/whoami", tok.Token); code != 200 || !strings.Contains(body, `"billing-agent"`) {
		t.Fatalf("whoami = %d %s", code, body)
	}
	// Revoked by the CLI while serve runs: refused at once.
	c.ok("", "token", "revoke", tok.ID, "--reason", "rotated")
	if code, _ := get("/v1/whoami", tok.Token); code != 401 {
		t.Fatalf("revoked token = %d", code)
	}
	// The SSH door takes jane's key and refuses another.
	if cl, err := ssh.Dial("tcp", sshAddr, &ssh.ClientConfig{User: "jane", Auth: []ssh.AuthMethod{ssh.PublicKeys(signer)}, HostKeyCallback: ssh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second}); err != nil {
		t.Fatalf("jane's key: %v", err)
	} else {
		cl.Close()
	}
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	otherSigner, _ := ssh.NewSignerFromKey(other)
	if cl, err := ssh.Dial("tcp", sshAddr, &ssh.ClientConfig{User: "jane", Auth: []ssh.AuthMethod{ssh.PublicKeys(otherSigner)}, HostKeyCallback: ssh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second}); err == nil {
		cl.Close()
		t.Fatal("an unknown key was let in")
	}
	if fi, err := os.Stat(c.db + ".ssh_host_ed25519"); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("host key beside the database: %v %v", fi, err)
	}

	// SIGINT shuts down cleanly.
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve exit: %v\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop on SIGINT")
	}
}
