package oplog

import "time"

// TokenData is the data of a TOKEN_CREATE or TOKEN_REVOKE entry; the token's
// id is the entry's item. The token itself is never logged: only the SHA-256
// of it, so the log proves who was issued a token without holding one.
type TokenData struct {
	ID        string     `json:"token_id"`
	Principal string     `json:"principal"`
	Hash      string     `json:"hash,omitempty"` // sha256:<hex> of the token (TOKEN_CREATE)
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
}

// SSHKeyData is the data of an SSH_KEY_ADD entry: a public key in the
// authorized_keys format (without its comment) and its SHA256 fingerprint.
type SSHKeyData struct {
	Principal   string `json:"principal"`
	Fingerprint string `json:"fingerprint"`
	PublicKey   string `json:"public_key"`
}
