package engine

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// This file holds the credentials of the doors of `memgov serve` and `memgov
// mcp`: identity there is proven, not claimed. An agent presents a bearer
// token issued to its principal; a reviewer presents an SSH key authorised for
// theirs. Issuing, revoking and authorising are log entries with the actor;
// a token is shown once and only its SHA-256 is kept.

// TokenPrefix starts every bearer token memgov issues, so a leaked one is
// recognisable by secret scanners.
const TokenPrefix = "mgv_"

// CreateToken issues a bearer token to a registered principal, valid for ttl
// (0: until revoked), and returns the token, which is never stored or shown
// again, and its record. The TOKEN_CREATE entry names the actor and reason.
func (e *Engine) CreateToken(ctx context.Context, principal string, ttl time.Duration, actor, reason string) (string, memgov.Token, error) {
	if ttl < 0 {
		return "", memgov.Token{}, fmt.Errorf("%w: a token's ttl must be positive", memgov.ErrInvalid)
	}
	if strings.TrimSpace(actor) == "" {
		return "", memgov.Token{}, fmt.Errorf("%w: issuing a token needs an actor", memgov.ErrInvalid)
	}
	if strings.TrimSpace(reason) == "" {
		reason = "issue a bearer token"
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", memgov.Token{}, err
	}
	secret := TokenPrefix + base64.RawURLEncoding.EncodeToString(raw[:])
	now := e.Now()
	d := oplog.TokenData{ID: oplog.NewID(), Principal: principal, Hash: memgov.HashToken(secret)}
	if ttl > 0 {
		exp := now.Add(ttl)
		d.ExpiresAt = &exp
	}
	var out memgov.Token
	err := e.store.Update(ctx, func(tx memgov.Tx) error {
		if _, err := tx.Principal(ctx, principal); err != nil {
			if isNotFound(err) {
				return &memgov.InputError{Kind: memgov.ErrInvalid, Input: "principal", Value: safeID(principal), Msg: fmt.Sprintf("%q is not a registered principal", safeID(principal))}
			}
			return err
		}
		if err := oplog.AppendData(ctx, tx, &oplog.Entry{Time: now, Op: oplog.TokenCreate, ItemID: d.ID, Actor: actor}, reason, d); err != nil {
			return err
		}
		var err error
		out, err = tx.Token(ctx, d.ID)
		return err
	})
	if err != nil {
		return "", memgov.Token{}, err
	}
	return secret, out, nil
}

// RevokeToken revokes a token by id; revoking a revoked token is a conflict.
func (e *Engine) RevokeToken(ctx context.Context, id, actor, reason string) (memgov.Token, error) {
	if strings.TrimSpace(actor) == "" {
		return memgov.Token{}, fmt.Errorf("%w: revoking a token needs an actor", memgov.ErrInvalid)
	}
	if strings.TrimSpace(reason) == "" {
		reason = "revoke a bearer token"
	}
	var out memgov.Token
	err := e.store.Update(ctx, func(tx memgov.Tx) error {
		t, err := tx.Token(ctx, id)
		if err != nil {
			return err
		}
		if t.RevokedAt != nil {
			return fmt.Errorf("%w: token %s was revoked at %s", memgov.ErrConflict, id, t.RevokedAt.Format(oplog.TimeFormat))
		}
		d := oplog.TokenData{ID: t.ID, Principal: t.Principal}
		if err := oplog.AppendData(ctx, tx, &oplog.Entry{Time: e.Now(), Op: oplog.TokenRevoke, ItemID: t.ID, Actor: actor}, reason, d); err != nil {
			return err
		}
		out, err = tx.Token(ctx, id)
		return err
	})
	return out, err
}

// Tokens lists every issued token (hashes are not part of the listing).
func (e *Engine) Tokens(ctx context.Context) ([]memgov.Token, error) {
	var ts []memgov.Token
	err := e.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		ts, err = tx.Tokens(ctx)
		return err
	})
	if ts == nil {
		ts = []memgov.Token{}
	}
	return ts, err
}

// Authenticate returns the principal a bearer token was issued to. An
// unknown, revoked or expired token, or one whose principal is gone, is
// ErrUnauthorized; the message never echoes the token.
func (e *Engine) Authenticate(ctx context.Context, token string) (memgov.Principal, error) {
	if !strings.HasPrefix(token, TokenPrefix) || len(token) > 128 {
		return memgov.Principal{}, fmt.Errorf("%w: not a memgov token", memgov.ErrUnauthorized)
	}
	var p memgov.Principal
	err := e.store.View(ctx, func(tx memgov.ReadTx) error {
		t, err := tx.TokenByHash(ctx, memgov.HashToken(token))
		if isNotFound(err) {
			return fmt.Errorf("%w: unknown token", memgov.ErrUnauthorized)
		}
		if err != nil {
			return err
		}
		if !t.Live(e.Now()) {
			return fmt.Errorf("%w: token %s is revoked or expired", memgov.ErrUnauthorized, t.ID)
		}
		p, err = tx.Principal(ctx, t.Principal)
		if isNotFound(err) {
			return fmt.Errorf("%w: token %s names an unknown principal", memgov.ErrUnauthorized, t.ID)
		}
		return err
	})
	return p, err
}

// AddSSHKeys authorises the public keys of an authorized_keys text (one key a
// line; blank lines and # comments skipped) for a registered principal. A key
// already authorised for the same principal is kept; one authorised for
// someone else is a conflict. It returns the keys it added.
func (e *Engine) AddSSHKeys(ctx context.Context, principal string, authorizedKeys []byte, actor string) ([]memgov.SSHKey, error) {
	if strings.TrimSpace(actor) == "" {
		actor = principal
	}
	type parsed struct{ fp, line string }
	var keys []parsed
	rest := authorizedKeys
	for len(bytes.TrimSpace(rest)) > 0 {
		pub, _, _, next, err := ssh.ParseAuthorizedKey(rest)
		if err != nil {
			return nil, fmt.Errorf("%w: not an SSH public key in authorized_keys format: %v", memgov.ErrInvalid, err)
		}
		keys = append(keys, parsed{ssh.FingerprintSHA256(pub), strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pub)))})
		rest = next
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%w: no SSH public key found", memgov.ErrInvalid)
	}
	var out []memgov.SSHKey
	err := e.store.Update(ctx, func(tx memgov.Tx) error {
		if _, err := tx.Principal(ctx, principal); err != nil {
			if isNotFound(err) {
				return fmt.Errorf("%w: %q is not a registered principal", memgov.ErrInvalid, safeID(principal))
			}
			return err
		}
		for _, k := range keys {
			old, err := tx.SSHKey(ctx, k.fp)
			if err == nil {
				if old.Principal != principal {
					return fmt.Errorf("%w: key %s is already authorised for %s", memgov.ErrConflict, k.fp, old.Principal)
				}
				continue
			}
			if !isNotFound(err) {
				return err
			}
			d := oplog.SSHKeyData{Principal: principal, Fingerprint: k.fp, PublicKey: k.line}
			if err := oplog.AppendData(ctx, tx, &oplog.Entry{Time: e.Now(), Op: oplog.SSHKeyAdd, ItemID: principal, Actor: actor}, "authorise an SSH key", d); err != nil {
				return err
			}
			added, err := tx.SSHKey(ctx, k.fp)
			if err != nil {
				return err
			}
			out = append(out, added)
		}
		return nil
	})
	return out, err
}

// PrincipalForKey returns the principal an SSH public key is authorised for;
// an unknown key is ErrUnauthorized.
func (e *Engine) PrincipalForKey(ctx context.Context, key ssh.PublicKey) (memgov.Principal, error) {
	fp := ssh.FingerprintSHA256(key)
	var p memgov.Principal
	err := e.store.View(ctx, func(tx memgov.ReadTx) error {
		k, err := tx.SSHKey(ctx, fp)
		if isNotFound(err) {
			return fmt.Errorf("%w: SSH key %s is not authorised", memgov.ErrUnauthorized, fp)
		}
		if err != nil {
			return err
		}
		p, err = tx.Principal(ctx, k.Principal)
		return err
	})
	return p, err
}

// SSHKeys lists every authorised SSH key.
func (e *Engine) SSHKeys(ctx context.Context) ([]memgov.SSHKey, error) {
	var ks []memgov.SSHKey
	err := e.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		ks, err = tx.SSHKeys(ctx)
		return err
	})
	if ks == nil {
		ks = []memgov.SSHKey{}
	}
	return ks, err
}
