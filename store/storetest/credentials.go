package storetest

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/memgov/memgov"
)

var credentialTests = []test{
	{"TokensByHashAndRevocation", testTokens},
	{"SSHKeys", testSSHKeys},
}

// TokenByHash and Token return a token as created, then as revoked; Tokens
// lists every token, revoked ones included; an unknown hash or id is
// ErrNotFound. Only the hash is stored.
func testTokens(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	secret, tok, err := fx.e.CreateToken(fx.ctx, executor, time.Hour, operator, "agent host")
	if err != nil {
		t.Fatal(err)
	}
	_, other, err := fx.e.CreateToken(fx.ctx, curator, 0, operator, "console")
	if err != nil {
		t.Fatal(err)
	}
	hash := memgov.HashToken(secret)
	fx.view(func(tx memgov.ReadTx) error {
		got, err := tx.TokenByHash(fx.ctx, hash)
		if err != nil {
			return err
		}
		if got.ID != tok.ID || got.Principal != executor || got.Hash != hash || got.CreatedBy != operator ||
			got.ExpiresAt == nil || !got.ExpiresAt.Equal(tok.CreatedAt.Add(time.Hour)) || got.RevokedAt != nil {
			t.Errorf("TokenByHash = %+v, want %+v", got, tok)
		}
		if byID, err := tx.Token(fx.ctx, tok.ID); err != nil || byID.Hash != hash || byID.Principal != executor {
			t.Errorf("Token(%s) = %+v, %v", tok.ID, byID, err)
		}
		if _, err := tx.TokenByHash(fx.ctx, memgov.HashToken("not a token")); !errors.Is(err, memgov.ErrNotFound) {
			t.Errorf("unknown hash: %v, want ErrNotFound", err)
		}
		if _, err := tx.Token(fx.ctx, "no-such-id"); !errors.Is(err, memgov.ErrNotFound) {
			t.Errorf("unknown id: %v, want ErrNotFound", err)
		}
		return nil
	})
	if _, err := fx.e.RevokeToken(fx.ctx, tok.ID, operator, "rotated"); err != nil {
		t.Fatal(err)
	}
	fx.view(func(tx memgov.ReadTx) error {
		got, err := tx.TokenByHash(fx.ctx, hash)
		if err != nil {
			return err
		}
		if got.RevokedAt == nil || got.RevokedBy != operator {
			t.Errorf("revoked token = %+v", got)
		}
		all, err := tx.Tokens(fx.ctx)
		if err != nil {
			return err
		}
		ids := map[string]bool{}
		for _, x := range all {
			ids[x.ID] = true
			if x.Hash == "" || x.Hash == secret {
				t.Errorf("Tokens lists %+v: the hash, never the token, is stored", x)
			}
		}
		if len(all) != 2 || !ids[tok.ID] || !ids[other.ID] {
			t.Errorf("Tokens = %+v, want %s and %s", all, tok.ID, other.ID)
		}
		return nil
	})
}

// SSHKey returns an authorised key by its SHA256 fingerprint; SSHKeys lists
// every key; an unknown fingerprint is ErrNotFound.
func testSSHKeys(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	var lines []byte
	var fps []string
	for range 2 {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		signer, err := ssh.NewSignerFromKey(priv)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, ssh.MarshalAuthorizedKey(signer.PublicKey())...)
		fps = append(fps, ssh.FingerprintSHA256(signer.PublicKey()))
	}
	if _, err := fx.e.AddSSHKeys(fx.ctx, curator, lines, operator); err != nil {
		t.Fatal(err)
	}
	fx.view(func(tx memgov.ReadTx) error {
		for _, fp := range fps {
			k, err := tx.SSHKey(fx.ctx, fp)
			if err != nil {
				return err
			}
			if k.Fingerprint != fp || k.Principal != curator || k.AddedBy != operator || k.PublicKey == "" || k.AddedAt.IsZero() {
				t.Errorf("SSHKey(%s) = %+v", fp, k)
			}
		}
		if _, err := tx.SSHKey(fx.ctx, "SHA256:unknown"); !errors.Is(err, memgov.ErrNotFound) {
			t.Errorf("unknown key: %v, want ErrNotFound", err)
		}
		all, err := tx.SSHKeys(fx.ctx)
		if err != nil {
			return err
		}
		if len(all) != 2 {
			t.Errorf("SSHKeys = %+v, want the two keys", all)
		}
		return nil
	})
}
