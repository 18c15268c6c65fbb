package gate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/memgov/memgov/engine/memory"
)

// IdempotencyReader is what the idempotency step reads.
type IdempotencyReader interface {
	Idempotent(ctx context.Context, token string, since time.Time) (memory.IdempotencyRecord, bool, error)
}

// IdempotencyInput is what the idempotency step needs.
type IdempotencyInput struct {
	// Token is the writer's idempotency token; empty: derived from the
	// canonical content, the agent and the layer.
	Token   string
	Content json.RawMessage // canonical
	Agent   string
	Layer   memory.Layer
	Now     time.Time
	// Window is how far back a token counts (12.1.7: 24 hours).
	Window time.Duration
	Reader IdempotencyReader
}

// IdempotencyResult is what the idempotency step finds.
type IdempotencyResult struct {
	// Token is the token the write is registered under.
	Token string
	// Replay is the earlier write of the same token within the window, if
	// any: the write is not carried out again.
	Replay *memory.IdempotencyRecord
}

// Idempotency answers a repeated request with the outcome of the first one
// (12.1.7).
type Idempotency struct{}

// Name returns NameIdempotency.
func (Idempotency) Name() string { return NameIdempotency }

// Evaluate looks the request's token up.
func (Idempotency) Evaluate(ctx context.Context, in IdempotencyInput) (IdempotencyResult, error) {
	token := in.Token
	if token == "" {
		token = Token(in.Content, in.Agent, in.Layer)
	}
	rec, ok, err := in.Reader.Idempotent(ctx, token, in.Now.Add(-in.Window))
	if err != nil {
		return IdempotencyResult{}, fmt.Errorf("read idempotency token: %w", err)
	}
	out := IdempotencyResult{Token: token}
	if ok {
		out.Replay = &rec
	}
	return out, nil
}

// Token is SHA-256(canonical(content) || agent || layer) (12.1.7).
func Token(content json.RawMessage, agent string, layer memory.Layer) string {
	h := sha256.New()
	h.Write(content)
	h.Write([]byte{0})
	h.Write([]byte(agent))
	h.Write([]byte{0})
	h.Write([]byte(layer))
	return hex.EncodeToString(h.Sum(nil))
}
