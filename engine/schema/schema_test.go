package schema

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// request returns a valid request for layer, changed by edits: each edit
// sets a top-level or content field (a "content." prefix), or deletes it when
// the value is nil.
func request(layer string, edits map[string]any) []byte {
	content := map[string]any{"text": "The customer prefers email follow-up."}
	switch layer {
	case Semantic:
		content["subject"], content["predicate"], content["object"] = "customer-42", "prefers", "email"
	case Procedural:
		content = map[string]any{"steps": []any{"open the ticket", "refund the charge"}}
	}
	req := map[string]any{
		"request_id":      "0190f5c2-7b1a-7000-8000-000000000001",
		"source_agent_id": "support-agent",
		"memory_ref":      "acme/support-agent/refunds",
		"target_layer":    layer,
		"content":         content,
		"confidence":      0.9,
	}
	for k, v := range edits {
		m := req
		if name, ok := strings.CutPrefix(k, "content."); ok {
			m, k = content, name
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	raw, err := json.Marshal(req)
	if err != nil {
		panic(err)
	}
	return raw
}

func TestValidateJSON(t *testing.T) {
	evidence := func(fields map[string]any) []any {
		e := map[string]any{"source_type": "DOCUMENT", "source_uri": "https://kb.example/refunds", "authority": 0.8}
		for k, v := range fields {
			if v == nil {
				delete(e, k)
			} else {
				e[k] = v
			}
		}
		return []any{e}
	}
	tests := []struct {
		name  string
		layer string
		edits map[string]any
		want  []string // "path: message" of every violation; nil means valid
	}{
		// Valid requests, one or more per layer.
		{"working minimal", Working, nil, nil},
		{"session with everything", Session, map[string]any{
			"key": "pref.email", "tags": []any{"customer", "preference"}, "evidence_refs": evidence(nil),
			"observation_type": "USER_STATEMENT", "classification": "PII", "ttl_seconds": 3600,
			"idempotency_token": "sha256:abc", "deadline": "2026-05-10T14:30:00Z", "run_id": "run-7",
			"residency": "eu", "session_id": "s-1", "content.extra": map[string]any{"free": true},
		}, nil},
		{"episodic with time and participants", Episodic, map[string]any{
			"content.occurred_at": "2026-05-01T09:00:00+02:00", "content.participants": []any{"alice", "support-agent"},
		}, nil},
		{"semantic fact with validity", Semantic, map[string]any{
			"content.valid_at": "2026-01-01T00:00:00Z", "content.invalid_at": "2027-01-01T00:00:00Z",
		}, nil},
		{"semantic text only", Semantic, map[string]any{"content.subject": nil, "content.predicate": nil, "content.object": nil}, nil},
		{"procedural steps", Procedural, map[string]any{"content.preconditions": []any{"ticket is open"}, "content.version": "2"}, nil},
		{"procedural text", Procedural, map[string]any{"content.steps": nil, "content.text": "Refund, then close."}, nil},
		{"memory item evidence", Episodic, map[string]any{"evidence_refs": evidence(map[string]any{"source_type": "MEMORY_ITEM", "source_item_id": "k-1"})}, nil},
		{"bounds", Working, map[string]any{"confidence": 0, "ttl_seconds": 0, "content.text": strings.Repeat("é", 16384)}, nil},

		// Shared request fields.
		{"missing agent", Working, map[string]any{"source_agent_id": nil}, []string{"/source_agent_id: is required"}},
		{"missing memory_ref and content", Session, map[string]any{"memory_ref": nil, "content": nil}, []string{"/content: is required", "/memory_ref: is required"}},
		{"confidence too high", Working, map[string]any{"confidence": 1.7}, []string{"/confidence: must be <= 1, got 1.7"}},
		{"confidence a string", Working, map[string]any{"confidence": "high"}, []string{"/confidence: must be a number, got string"}},
		{"unknown top-level field", Working, map[string]any{"write_policy": "strict"}, []string{"/write_policy: is not allowed"}},
		{"memory_ref shape", Working, map[string]any{"memory_ref": "acme"}, []string{"/memory_ref: must match the pattern ^[A-Za-z0-9._-]{1,64}(/[A-Za-z0-9._-]{1,64}){1,7}$"}},
		{"agent id shape", Working, map[string]any{"source_agent_id": "a b"}, []string{"/source_agent_id: must match the pattern ^[A-Za-z0-9._-]{1,64}$"}},
		{"key too long", Working, map[string]any{"key": strings.Repeat("k", 257)}, []string{"/key: must be at most 256 characters, got 257"}},
		{"classification", Working, map[string]any{"classification": "SECRET"}, []string{"/classification: must be one of PII, BUSINESS, GENERAL, PUBLIC"}},
		{"ttl negative", Working, map[string]any{"ttl_seconds": -1}, []string{"/ttl_seconds: must be >= 0, got -1"}},
		{"ttl fractional", Working, map[string]any{"ttl_seconds": 1.5}, []string{"/ttl_seconds: must be an integer, got number"}},
		{"deadline format", Working, map[string]any{"deadline": "tomorrow"}, []string{"/deadline: must be an RFC 3339 date-time, such as 2026-05-10T14:30:00Z"}},
		{"duplicate tags", Working, map[string]any{"tags": []any{"a", "b", "a"}}, []string{"/tags: must not repeat an item: items 0 and 2 are equal"}},
		{"tag too long", Working, map[string]any{"tags": []any{strings.Repeat("t", 65)}}, []string{"/tags/0: must be at most 64 characters, got 65"}},
		{"too many tags", Working, map[string]any{"tags": func() []any {
			var ts []any
			for i := range 33 {
				ts = append(ts, strings.Repeat("t", i+1))
			}
			return ts
		}()}, []string{"/tags: must have at most 32 items, got 33"}},

		// Content.
		{"content not an object", Working, map[string]any{"content": "text"}, []string{"/content: must be an object, got string"}},
		{"text missing", Session, map[string]any{"content.text": nil}, []string{"/content/text: is required"}},
		{"text empty", Episodic, map[string]any{"content.text": ""}, []string{"/content/text: must not be empty"}},
		{"text over 32 KiB", Working, map[string]any{"content.text": strings.Repeat("é", 16385)}, []string{"/content/text: must be at most 32768 bytes, got 32770"}},
		{"episodic occurred_at", Episodic, map[string]any{"content.occurred_at": "2026-05-01"}, []string{"/content/occurred_at: must be an RFC 3339 date-time, such as 2026-05-10T14:30:00Z"}},
		{"episodic participants", Episodic, map[string]any{"content.participants": "alice"}, []string{"/content/participants: must be an array, got string"}},
		{"semantic predicate without object", Semantic, map[string]any{"content.object": nil}, []string{
			`/content/object: is required when "predicate" is present`, `/content/object: is required when "subject" is present`,
		}},
		{"semantic subject alone", Semantic, map[string]any{"content.predicate": nil, "content.object": nil}, []string{
			`/content/object: is required when "subject" is present`, `/content/predicate: is required when "subject" is present`,
		}},
		{"semantic invalid_at", Semantic, map[string]any{"content.invalid_at": 5}, []string{"/content/invalid_at: must be a string, got number"}},
		{"procedural neither steps nor text", Procedural, map[string]any{"content.steps": nil}, []string{`/content: must have at least one of the properties "steps" or "text"`}},
		{"procedural empty steps", Procedural, map[string]any{"content.steps": []any{}}, []string{"/content/steps: must have at least 1 item, got 0"}},
		{"procedural step not a string", Procedural, map[string]any{"content.steps": []any{"ok", 3}}, []string{"/content/steps/1: must be a string, got number"}},

		// Evidence.
		{"evidence authority", Semantic, map[string]any{"evidence_refs": evidence(map[string]any{"authority": 2})}, []string{"/evidence_refs/0/authority: must be <= 1, got 2"}},
		{"evidence source_type", Semantic, map[string]any{"evidence_refs": evidence(map[string]any{"source_type": "RUMOUR"})}, []string{
			"/evidence_refs/0/source_type: must be one of DOCUMENT, API_RESPONSE, TOOL_OUTPUT, HUMAN_INPUT, AGENT_REASONING, CODE_EXECUTION, MEMORY_ITEM",
		}},
		{"evidence missing source_type", Semantic, map[string]any{"evidence_refs": evidence(map[string]any{"source_type": nil})}, []string{"/evidence_refs/0/source_type: is required"}},
		{"memory item evidence without id", Semantic, map[string]any{"evidence_refs": evidence(map[string]any{"source_type": "MEMORY_ITEM"})}, []string{"/evidence_refs/0/source_item_id: is required"}},
		{"evidence extra field", Semantic, map[string]any{"evidence_refs": evidence(map[string]any{"score": 1})}, []string{"/evidence_refs/0/score: is not allowed"}},
		{"evidence accessed_at", Semantic, map[string]any{"evidence_refs": evidence(map[string]any{"accessed_at": "2026-13-01T00:00:00Z"})}, []string{"/evidence_refs/0/accessed_at: must be an RFC 3339 date-time, such as 2026-05-10T14:30:00Z"}},
		{"evidence excerpt over 2 KiB", Semantic, map[string]any{"evidence_refs": evidence(map[string]any{"excerpt": strings.Repeat("x", 2049)})}, []string{"/evidence_refs/0/excerpt: must be at most 2048 bytes, got 2049"}},

		// target_layer itself.
		{"unknown layer", "semantic", nil, []string{"/target_layer: must be one of WORKING, SESSION, EPISODIC, SEMANTIC, PROCEDURAL"}},
		{"missing layer", Working, map[string]any{"target_layer": nil}, []string{"/target_layer: is required"}},
		{"layer not a string", Working, map[string]any{"target_layer": 3}, []string{"/target_layer: must be one of WORKING, SESSION, EPISODIC, SEMANTIC, PROCEDURAL"}},
		{"number out of range", Working, map[string]any{"confidence": json.Number("1e99999999"), "ttl_seconds": json.Number("1" + strings.Repeat("0", 70))}, []string{
			"/confidence: is a number out of range", "/ttl_seconds: is a number out of range",
		}},
		{"property with slash and tilde", Working, map[string]any{"a/b~c": 1}, []string{"/a~1b~0c: is not allowed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := request(tt.layer, tt.edits)
			err := ValidateJSON(raw)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("ValidateJSON: unexpected error: %v", err)
				}
				return
			}
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("ValidateJSON = %v, want *Error", err)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error does not match ErrInvalid")
			}
			var got []string
			for _, v := range se.Violations {
				got = append(got, v.String())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("violations:\n got  %q\n want %q", got, tt.want)
			}
		})
	}
}

func TestValidateJSONMalformed(t *testing.T) {
	big := `{"content":{"text":"` + strings.Repeat("x", MaxRequestBytes) + `"}}`
	for _, raw := range []string{``, `{`, `{"a":1} {}`, `nul`, "\xff", big} {
		err := ValidateJSON([]byte(raw))
		var se *Error
		if !errors.As(err, &se) || len(se.Violations) != 1 || se.Violations[0].Path != "" {
			t.Errorf("ValidateJSON(%.20q) = %.100v, want one violation at the root", raw, err)
		}
	}
	err := ValidateJSON([]byte(`[]`))
	if err == nil || !strings.Contains(err.Error(), "(document): must be an object, got array") {
		t.Errorf("ValidateJSON([]) = %v", err)
	}
}

func TestValidate(t *testing.T) {
	var doc any
	if err := json.Unmarshal(request(Semantic, nil), &doc); err != nil {
		t.Fatal(err)
	}
	if err := Validate(Semantic, doc); err != nil {
		t.Errorf("Validate(SEMANTIC): %v", err)
	}
	err := Validate(Working, doc)
	var se *Error
	if !errors.As(err, &se) || se.Layer != Working || len(se.Violations) != 1 ||
		se.Violations[0].String() != "/target_layer: must be WORKING" {
		t.Errorf("Validate(WORKING) on a SEMANTIC request = %v", err)
	}
	if err := Validate("ARCHIVAL", doc); !errors.Is(err, ErrUnknownLayer) {
		t.Errorf("Validate(ARCHIVAL) = %v, want ErrUnknownLayer", err)
	}
	if err := Validate(Working, map[string]int{"a": 1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("Validate on a non-JSON Go value = %v, want ErrInvalid", err)
	}
}

func TestErrorMessage(t *testing.T) {
	e := &Error{Layer: Semantic}
	for i := range 10 {
		e.Violations = append(e.Violations, Violation{Path: "/tags/" + string(rune('0'+i)), Message: "is bad"})
	}
	msg := e.Error()
	if !strings.HasPrefix(msg, "schema: invalid write request for layer SEMANTIC: /tags/0: is bad; ") ||
		!strings.HasSuffix(msg, "; and 2 more") {
		t.Errorf("Error() = %q", msg)
	}
}

func TestLoadOverrides(t *testing.T) {
	dir := t.TempDir()
	// A stricter WORKING schema: tags are required.
	override := `{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"$ref": "request.schema.json",
		"required": ["tags"],
		"properties": {"target_layer": {"const": "WORKING"}, "content": {"required": ["text"], "properties": {"text": {"maxBytes": 10}}}}
	}`
	if err := os.WriteFile(filepath.Join(dir, "working.schema.json"), []byte(override), 0o600); err != nil {
		t.Fatal(err)
	}
	v, err := LoadOverrides(dir)
	if err != nil {
		t.Fatalf("LoadOverrides: %v", err)
	}
	err = v.ValidateJSON(request(Working, nil))
	var se *Error
	if !errors.As(err, &se) {
		t.Fatalf("overridden WORKING: %v", err)
	}
	want := []string{"/content/text: must be at most 10 bytes, got 37", "/tags: is required"}
	var got []string
	for _, x := range se.Violations {
		got = append(got, x.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations %q, want %q", got, want)
	}
	if err := v.ValidateJSON(request(Session, nil)); err != nil {
		t.Errorf("SESSION keeps the embedded schema: %v", err)
	}

	bad := []struct{ name, file, body string }{
		{"not JSON", "session.schema.json", `{`},
		{"bad keyword", "session.schema.json", `{"type": 5}`},
		{"bad maxBytes", "session.schema.json", `{"maxBytes": -1}`},
		{"external reference", "episodic.schema.json", `{"$ref": "https://example.com/x.json"}`},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			d := t.TempDir()
			if err := os.WriteFile(filepath.Join(d, b.file), []byte(b.body), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := LoadOverrides(d); err == nil {
				t.Errorf("LoadOverrides accepted %s", b.name)
			}
		})
	}
	if _, err := LoadOverrides(filepath.Join(dir, "missing")); err == nil {
		t.Error("LoadOverrides accepted a missing directory")
	}
}

func FuzzValidateJSON(f *testing.F) {
	for _, l := range Layers() {
		f.Add(request(l, nil))
	}
	f.Add(request(Semantic, map[string]any{"confidence": 1e300, "ttl_seconds": 1e308}))
	f.Add([]byte(`{"target_layer":"PROCEDURAL","content":{"steps":[]},"evidence_refs":[{"source_type":"MEMORY_ITEM"}]}`))
	f.Add([]byte(`{"confidence": 1e999999, "ttl_seconds": -1e-999999}`))
	f.Add([]byte(`[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		err := ValidateJSON(raw)
		if err == nil {
			var doc map[string]any
			if json.Unmarshal(raw, &doc) != nil || doc == nil {
				t.Fatalf("accepted a document that is not a JSON object")
			}
			return
		}
		var se *Error
		if !errors.As(err, &se) || len(se.Violations) == 0 {
			t.Fatalf("ValidateJSON returned %v, want *Error with violations", err)
		}
		for _, v := range se.Violations {
			if v.Message == "" || (v.Path != "" && v.Path[0] != '/') {
				t.Fatalf("bad violation %#v", v)
			}
		}
	})
}
