package sqlstore

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
)

// VerifyStateMAC binds a replay's log size, chain value and table digest.
func VerifyStateMAC(key []byte, size int64, chain, digest []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("memgov-verify-state\x00"))
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(size))
	m.Write(b[:])
	m.Write(chain)
	m.Write(digest)
	return m.Sum(nil)
}
