package memgov

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestContentTextOfStoredContent: content.text of a stored version; a
// content that is not JSON is an error naming the version, while no
// content, or JSON of another shape, has no text and is no error.
func TestContentTextOfStoredContent(t *testing.T) {
	cases := []struct {
		content string
		text    string
		corrupt bool
	}{
		{`{"text":"Customer 42 prefers email."}`, "Customer 42 prefers email.", false},
		{`{"text":"Customer 42 pre`, "", true},
		{`not json`, "", true},
		{``, "", false},
		{`{"text":42}`, "", false},
		{`["a"]`, "", false},
	}
	for _, c := range cases {
		v := Version{ID: "ver-1", Content: json.RawMessage(c.content)}
		text, err := v.ContentText()
		if text != c.text || (err != nil) != c.corrupt {
			t.Errorf("ContentText(%s) = %q, %v", c.content, text, err)
		}
		if err != nil && !strings.Contains(err.Error(), "versions.content of row ver-1") {
			t.Errorf("ContentText(%s): %v does not name the row", c.content, err)
		}
		if v.Text() != c.text {
			t.Errorf("Text(%s) = %q", c.content, v.Text())
		}
	}
}
