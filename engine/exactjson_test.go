package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/gate"
)

func TestDecodeWriteRequestRefusesWhatItWouldChange(t *testing.T) {
	base := `{"source_agent_id":"bot","memory_ref":"acme/bot","target_layer":"WORKING",`
	for _, tc := range []struct{ name, raw, want string }{
		{"dot segments in the key", base + `"key":"../../etc/passwd","content":{"text":"x"}}`, `dot segment ".."`},
		{"a single dot segment", base + `"key":"a/./b","content":{"text":"x"}}`, `dot segment "."`},
		{"backslash dot segments", base + `"key":"..\\..\\win","content":{"text":"x"}}`, `dot segment ".."`},
		{"a lone high surrogate in the key", base + `"key":"k\ud800","content":{"text":"x"}}`, `lone UTF-16 surrogate escape \ud800`},
		{"a lone low surrogate in content", base + `"key":"k","content":{"text":"a\uDC00b"}}`, `lone UTF-16 surrogate escape \udc00`},
		{"a high surrogate followed by a non-surrogate", base + `"key":"k","content":{"text":"\ud83d\u0041"}}`, `lone UTF-16 surrogate`},
		{"2^64 inside content", base + `"key":"k","content":{"text":"x","n":18446744073709551616}}`, `integer 18446744073709551616`},
		{"2^53+1 inside content", base + `"key":"k","content":{"text":"x","n":[9007199254740993]}}`, `cannot carry exactly`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := memgov.DecodeWriteRequest([]byte(tc.raw))
			if !errors.Is(err, memgov.ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("DecodeWriteRequest = %v, want ErrInvalid naming %q", err, tc.want)
			}
		})
	}
	for _, tc := range []struct{ name, raw string }{
		{"a surrogate pair", base + `"key":"k\ud83d\ude00","content":{"text":"\ud83d\ude00 \\ud800 is text"}}`},
		{"dots inside a segment", base + `"key":"v1.2/..x/a..b","content":{"text":"x"}}`},
		{"2^53 and exact large integers", base + `"key":"k","content":{"text":"x","n":9007199254740992,"m":-9007199254740992,"f":1.5e300}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := memgov.DecodeWriteRequest([]byte(tc.raw)); err != nil {
				t.Fatalf("DecodeWriteRequest = %v, want it accepted", err)
			}
		})
	}
}

// A request built in Go (as the MCP door builds one) meets the same checks
// in the pipeline: nothing is stored.
func TestWriteRefusesDotKeysAndInexactContent(t *testing.T) {
	e := newEngine(t, "")
	ctx := context.Background()
	if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: "bot", Role: memgov.Executor, Tenant: "acme"}, "admin"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		key     string
		content string
		want    string
	}{
		{"../../etc/passwd", `{"text":"x"}`, "dot segment"},
		{"k\uFFFD", `{"text":"x"}`, "U+FFFD"},
		{"k", `{"text":"x","n":18446744073709551616}`, "cannot carry exactly"},
	} {
		res, err := e.Host().Adapter(memgov.As("bot")).Put(ctx, memgov.WriteRequest{MemoryRef: "acme/bot", Key: tc.key, TargetLayer: memgov.Working, Content: json.RawMessage(tc.content)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != memgov.StatusRejected || res.Reason != gate.ReasonSchemaInvalid || !strings.Contains(res.Detail, tc.want) {
			t.Errorf("write key %q content %s = %+v, want REJECTED SCHEMA_INVALID naming %q", tc.key, tc.content, res, tc.want)
		}
	}
	if n, _ := e.Audit().LogSize(ctx); n != 1 {
		t.Errorf("the log holds %d entries after refused writes, want 1 (the principal)", n)
	}
}
