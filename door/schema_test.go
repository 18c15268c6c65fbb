package door

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// memoryEntrySchema compiles the contract's MemoryEntry schema
// (additionalProperties: false), formats asserted.
func memoryEntrySchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "testdata", "contract", "memory-entry.schema.json"))
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
	if err := s.Validate(map[string]any{"id": "k", "content": "c", "tags": []any{}, "createdAt": "2026-11-26T10:00:00Z", "read": map[string]any{}}); err == nil {
		t.Fatal("the MemoryEntry schema admits an extension")
	}
	return s
}

// validateEntries validates v, one decoded MemoryEntry or a list of them.
func validateEntries(t *testing.T, s *jsonschema.Schema, what string, v any) {
	t.Helper()
	items, ok := v.([]any)
	if !ok {
		items = []any{v}
	}
	if len(items) == 0 {
		t.Errorf("%s: no entries to check", what)
	}
	for _, it := range items {
		if err := s.Validate(it); err != nil {
			t.Errorf("%s: not a MemoryEntry: %v", what, err)
		}
	}
}
