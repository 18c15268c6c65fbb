package engine_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
)

func TestTokensExpireRevokeAndRebuild(t *testing.T) {
	clock := &stepClock{t: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)}
	e := newEngine(t, "", engine.WithClock(clock.Now))
	ctx := context.Background()
	if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: "bot", Role: memgov.Executor, Tenant: "acme"}, "ops"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.CreateToken(ctx, "ghost", 0, "ops", ""); !errors.Is(err, memgov.ErrInvalid) {
		t.Fatalf("token for an unknown principal: %v", err)
	}
	short, st, err := e.CreateToken(ctx, "bot", time.Hour, "ops", "rollout")
	if err != nil {
		t.Fatal(err)
	}
	long, lt, err := e.CreateToken(ctx, "bot", 0, "ops", "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(short, engine.TokenPrefix) || short == long || st.Hash != memgov.HashToken(short) || st.ExpiresAt == nil || lt.ExpiresAt != nil {
		t.Fatalf("tokens: %+v %+v", st, lt)
	}
	for _, tok := range []string{short, long} {
		if p, err := e.Authenticate(ctx, tok); err != nil || p.ID != "bot" {
			t.Fatalf("authenticate: %+v %v", p, err)
		}
	}
	for _, bad := range []string{"", "mgv_", "mgv_" + strings.Repeat("x", 43), "Bearer " + long, strings.Repeat("m", 500)} {
		if _, err := e.Authenticate(ctx, bad); !errors.Is(err, memgov.ErrUnauthorized) {
			t.Errorf("authenticate %q: %v", bad, err)
		}
	}
	clock.t = clock.t.Add(time.Hour)
	if _, err := e.Authenticate(ctx, short); !errors.Is(err, memgov.ErrUnauthorized) {
		t.Fatalf("an expired token: %v", err)
	}
	if _, err := e.RevokeToken(ctx, lt.ID, "ops", "rotated"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Authenticate(ctx, long); !errors.Is(err, memgov.ErrUnauthorized) || strings.Contains(err.Error(), long) {
		t.Fatalf("a revoked token: %v", err)
	}
	if _, err := e.RevokeToken(ctx, lt.ID, "ops", ""); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("revoking twice: %v", err)
	}

	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	signer, _ := ssh.NewSignerFromKey(priv)
	line := append([]byte("# jane's laptop\n"), ssh.MarshalAuthorizedKey(signer.PublicKey())...)
	keys, err := e.AddSSHKeys(ctx, "bot", line, "ops")
	if err != nil || len(keys) != 1 || keys[0].Fingerprint != ssh.FingerprintSHA256(signer.PublicKey()) {
		t.Fatalf("add key: %+v %v", keys, err)
	}
	if again, err := e.AddSSHKeys(ctx, "bot", line, "ops"); err != nil || len(again) != 0 {
		t.Fatalf("adding the same key again: %+v %v", again, err)
	}
	if _, err := e.AddSSHKeys(ctx, "bot", []byte("ssh-ed25519 not-base64"), "ops"); !errors.Is(err, memgov.ErrInvalid) {
		t.Fatalf("a malformed key: %v", err)
	}
	if p, err := e.PrincipalForKey(ctx, signer.PublicKey()); err != nil || p.ID != "bot" {
		t.Fatalf("principal for key: %+v %v", p, err)
	}
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	otherSigner, _ := ssh.NewSignerFromKey(other)
	if _, err := e.PrincipalForKey(ctx, otherSigner.PublicKey()); !errors.Is(err, memgov.ErrUnauthorized) {
		t.Fatalf("an unknown key: %v", err)
	}

	// The credential tables are derived: a rebuild from the log reproduces them.
	rb, err := e.Audit().Rebuild(ctx)
	if err != nil || len(rb.Differences) != 0 || rb.Tables["tokens"] != 2 || rb.Tables["ssh_keys"] != 1 {
		t.Fatalf("rebuild: %+v %v", rb, err)
	}
	if rep, err := e.Audit().Verify(ctx); err != nil || !rep.OK {
		t.Fatalf("verify: %+v %v", rep, err)
	}
}

func TestActingAs(t *testing.T) {
	p := memgov.Principal{ID: "bot", Role: memgov.Executor, Tenant: "acme"}
	if engine.ActingAs(p, "") != nil || engine.ActingAs(p, "bot") != nil {
		t.Fatal("acting as oneself was refused")
	}
	if err := engine.ActingAs(p, "bot2"); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("acting as bot2: %v", err)
	}
}
