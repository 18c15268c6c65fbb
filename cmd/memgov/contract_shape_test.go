package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// memoryEntrySchema compiles the contract's MemoryEntry schema
// (additionalProperties: false), with formats asserted.
func memoryEntrySchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "..", "testdata", "contract", "memory-entry.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(path, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkEntries validates every MemoryEntry of raw (one object or an array).
func checkEntries(t *testing.T, s *jsonschema.Schema, what, raw string) int {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v: %q", what, err, raw)
	}
	items, ok := v.([]any)
	if !ok {
		items = []any{v}
	}
	for _, it := range items {
		if err := s.Validate(it); err != nil {
			t.Errorf("%s: not a MemoryEntry: %v", what, err)
		}
	}
	return len(items)
}

// list --json and get --json print exactly MemoryEntry objects; the
// retrieval id and read notes go to stderr, and search carries them in its
// envelope.
func TestCLIListAndGetPrintExactlyMemoryEntries(t *testing.T) {
	s := memoryEntrySchema(t)
	// The schema refuses an extension: the check can fail.
	if err := s.Validate(map[string]any{"id": "k", "content": "c", "tags": []any{}, "createdAt": "2026-11-26T10:00:00Z", "retrieval_id": "r"}); err == nil {
		t.Fatal("the MemoryEntry schema admits retrieval_id")
	}
	c := newCLI(t)
	c.setup()
	for _, k := range []string{"a", "b"} {
		if r := c.write(sessionReq(k, "Session fact "+k+" about invoice 9.", 0.5)); r.Status != "COMMITTED" {
			t.Fatalf("%s: %+v", k, r)
		}
	}
	out, errOut, code := c.run("", "list", "acme/billing-agent", "--json")
	if code != 0 || checkEntries(t, s, "list --json", out) != 2 {
		t.Fatalf("list --json = %d %q", code, out)
	}
	if !strings.Contains(errOut, "retrieval ") || !strings.Contains(errOut, "read a: source tool_verified") || !strings.Contains(errOut, "needs verification") {
		t.Errorf("list --json stderr lacks the retrieval and read notes: %q", errOut)
	}
	out, errOut, code = c.run("", "get", "acme/billing-agent", "a", "--json")
	if code != 0 || checkEntries(t, s, "get --json", out) != 1 || !strings.Contains(errOut, "retrieval ") {
		t.Fatalf("get --json = %d %q %q", code, out, errOut)
	}
	var env struct {
		RetrievalID string `json:"retrieval_id"`
		Hits        []struct {
			Entry json.RawMessage `json:"entry"`
			Read  *struct {
				Source string `json:"source"`
			} `json:"read"`
		} `json:"hits"`
	}
	if err := json.Unmarshal([]byte(c.ok("", "search", "acme/billing-agent", "invoice 9", "--json")), &env); err != nil || env.RetrievalID == "" || len(env.Hits) == 0 {
		t.Fatalf("search --json envelope: %+v %v", env, err)
	}
	for _, h := range env.Hits {
		checkEntries(t, s, "search hit entry", string(h.Entry))
		if h.Read == nil || h.Read.Source == "" {
			t.Errorf("search hit without its read note: %+v", h)
		}
	}
}
