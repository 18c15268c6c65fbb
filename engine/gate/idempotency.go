package gate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/memgov/memgov"
)

// ReasonIdempotencyConflict refuses a write whose caller-supplied token was
// already used, within the window, for a different write.
const ReasonIdempotencyConflict = "IDEMPOTENCY_CONFLICT"

// IdempotencyReader is what the idempotency step reads.
type IdempotencyReader interface {
	Idempotent(ctx context.Context, token string, since time.Time) (memgov.IdempotencyRecord, bool, error)
}

// IdempotencyInput is what the idempotency step needs.
type IdempotencyInput struct {
	// Token is the writer's idempotency token; empty: derived from what the
	// write writes (Scope).
	Token     string
	MemoryRef string
	Key       string          // the key the writer asked for ("" when generated)
	Content   json.RawMessage // canonical
	Agent     string
	Layer     memgov.Layer
	Now       time.Time
	// Window is how far back a token counts (spec §12.1.7: 24 hours).
	Window time.Duration
	Reader IdempotencyReader
}

// IdempotencyResult is what the idempotency step finds.
type IdempotencyResult struct {
	Result
	// Token is the token the write is registered under.
	Token string
	// Scope is the digest of what the write writes, registered with the
	// token so a replay can be compared with the write it repeats.
	Scope string
	// Replay is the earlier write of the same token and scope within the
	// window, if any: the write is not carried out again.
	Replay *memgov.IdempotencyRecord
}

// Idempotency answers a repeated request with the outcome of the first one
// (spec §12.1.7). A token covers what was written: the memoryRef, the key, the
// content, the agent and the layer. A caller's token replayed with any of
// them changed is refused (IDEMPOTENCY_CONFLICT), never answered
// ALREADY_COMMITTED: that answer would drop the new write silently.
type Idempotency struct{}

// Name returns NameIdempotency.
func (Idempotency) Name() string { return NameIdempotency }

// Evaluate looks the request's token up.
func (Idempotency) Evaluate(ctx context.Context, in IdempotencyInput) (IdempotencyResult, error) {
	scope := Scope(in.MemoryRef, in.Key, in.Content, in.Agent, in.Layer)
	token := in.Token
	if token == "" {
		token = scope
	}
	rec, ok, err := in.Reader.Idempotent(ctx, token, in.Now.Add(-in.Window))
	if err != nil {
		return IdempotencyResult{}, fmt.Errorf("read idempotency token: %w", err)
	}
	out := IdempotencyResult{Result: accept(), Token: token, Scope: scope}
	if !ok {
		return out, nil
	}
	if rec.Scope != "" && rec.Scope != scope {
		out.Result = reject(ReasonIdempotencyConflict,
			"idempotency token %q was used at %s for a different write (another memoryRef, key, content, agent or layer); use a new token for a new write",
			clip(token, 64), rec.CreatedAt.UTC().Format(time.RFC3339))
		return out, nil
	}
	out.Replay = &rec
	return out, nil
}

// Scope is SHA-256 over what a write writes: memoryRef, key, canonical
// content, agent and layer (spec §12.1.7, scoped to the target). It is the default
// idempotency token.
func Scope(memoryRef, key string, content json.RawMessage, agent string, layer memgov.Layer) string {
	h := sha256.New()
	for _, part := range [][]byte{[]byte(memoryRef), []byte(key), content, []byte(agent), []byte(layer)} {
		h.Write(part)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Token is SHA-256(canonical(content) || agent || layer), the unscoped token
// of spec §12.1.7. memgov derives its default token with Scope instead; Token stays
// for callers that computed tokens this way.
func Token(content json.RawMessage, agent string, layer memgov.Layer) string {
	h := sha256.New()
	h.Write(content)
	h.Write([]byte{0})
	h.Write([]byte(agent))
	h.Write([]byte{0})
	h.Write([]byte(layer))
	return hex.EncodeToString(h.Sum(nil))
}
