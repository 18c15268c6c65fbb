package engine

import "context"

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
