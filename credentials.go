package memgov

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// CredentialReader reads the credentials principals present at the doors of
// `memgov serve` (credentials.go): bearer tokens, kept as hashes, and
// authorised SSH public keys.
type CredentialReader interface {
	// TokenByHash returns the token whose hash is hash (revoked and expired
	// ones included; the caller judges them).
	TokenByHash(ctx context.Context, hash string) (Token, error)
	Token(ctx context.Context, id string) (Token, error)
	Tokens(ctx context.Context) ([]Token, error)
	// SSHKey returns the authorised key with a SHA256 fingerprint.
	SSHKey(ctx context.Context, fingerprint string) (SSHKey, error)
	SSHKeys(ctx context.Context) ([]SSHKey, error)
}

// Token is an issued bearer token as stored: its hash, never the token.
type Token struct {
	ID        string     `json:"id"`
	Principal string     `json:"principal"`
	Hash      string     `json:"-"`
	CreatedAt time.Time  `json:"created_at"`
	CreatedBy string     `json:"created_by"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
	RevokedBy string     `json:"revoked_by,omitempty"`
}

// Live reports whether the token authenticates at now.
func (t Token) Live(now time.Time) bool {
	return t.RevokedAt == nil && (t.ExpiresAt == nil || now.Before(*t.ExpiresAt))
}

// SSHKey is an SSH public key authorised for a principal.
type SSHKey struct {
	Fingerprint string    `json:"fingerprint"` // SHA256:...
	Principal   string    `json:"principal"`
	PublicKey   string    `json:"public_key"` // authorized_keys format, no comment
	AddedAt     time.Time `json:"added_at"`
	AddedBy     string    `json:"added_by"`
}

// HashToken returns the stored form of a bearer token: sha256:<hex>.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return "sha256:" + hex.EncodeToString(sum[:])
}
