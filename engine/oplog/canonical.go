package oplog

import (
	"strconv"

	"github.com/memgov/memgov/engine/canon"
)

// The log's two canonical forms, the entry a leaf commits to and the
// payload, are written here member by member in RFC 8785 order instead of
// through canon.Marshal (encoding/json, then a parse and a re-serialisation
// of the whole document). The bytes are the same: a value that these writers
// cannot write as canon.Marshal would (a string that is not valid UTF-8, an
// integer beyond 2^53) makes them report false, and the caller falls back to
// canon.Marshal.

// maxExactInt is the largest integer a JSON number (an IEEE-754 double)
// holds exactly.
const maxExactInt = 1 << 53

// canonWriter appends members of a canonical object; ok turns false at the
// first value it cannot write as canon.Marshal would.
type canonWriter struct {
	buf []byte
	n   int
	ok  bool
	err error
}

func newCanonWriter(size int) *canonWriter {
	w := &canonWriter{buf: make([]byte, 0, size), ok: true}
	w.buf = append(w.buf, '{')
	return w
}

func (w *canonWriter) key(k string) {
	if w.n > 0 {
		w.buf = append(w.buf, ',')
	}
	w.n++
	w.buf = append(w.buf, '"')
	w.buf = append(w.buf, k...) // member names here are plain ASCII
	w.buf = append(w.buf, '"', ':')
}

func (w *canonWriter) str(k, v string) {
	if !w.ok {
		return
	}
	w.key(k)
	w.buf, w.ok = canon.AppendString(w.buf, v)
}

func (w *canonWriter) optStr(k, v string) {
	if v != "" {
		w.str(k, v)
	}
}

func (w *canonWriter) int(k string, v int64) {
	if !w.ok {
		return
	}
	if v > maxExactInt || v < -maxExactInt {
		w.ok = false
		return
	}
	w.key(k)
	w.buf = strconv.AppendInt(w.buf, v, 10)
}

func (w *canonWriter) optFloat(k string, v *float64) {
	if !w.ok || v == nil || w.err != nil {
		return
	}
	w.key(k)
	w.buf, w.err = canon.AppendNumber(w.buf, *v)
}

// optRaw writes a JSON value, canonicalised, unless it is empty.
func (w *canonWriter) optRaw(k string, v []byte) {
	if !w.ok || len(v) == 0 || w.err != nil {
		return
	}
	c, err := canon.Canonicalize(v)
	if err != nil {
		w.err = err
		return
	}
	w.key(k)
	w.buf = append(w.buf, c...)
}

func (w *canonWriter) optStrings(k string, v []string) {
	if !w.ok || len(v) == 0 {
		return
	}
	w.key(k)
	w.buf = append(w.buf, '[')
	for i, s := range v {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		if w.buf, w.ok = canon.AppendString(w.buf, s); !w.ok {
			return
		}
	}
	w.buf = append(w.buf, ']')
}

func (w *canonWriter) done() ([]byte, bool, error) {
	if w.err != nil || !w.ok {
		return nil, w.ok, w.err
	}
	return append(w.buf, '}'), true, nil
}

// canonical writes the canonical JSON of c; ok false: use canon.Marshal.
func (c canonicalEntry) canonical() (b []byte, ok bool) {
	w := newCanonWriter(320)
	w.str("actor", c.Actor)
	w.str("item_id", c.ItemID)
	w.int("lsn", c.LSN)
	w.str("memory_ref", c.MemoryRef)
	w.str("op", string(c.Op))
	w.str("payload_hash", c.PayloadHash)
	w.str("previous_version_id", c.PrevVersionID)
	w.str("ts", c.Time)
	w.str("version_id", c.VersionID)
	b, ok, _ = w.done()
	return b, ok
}

// canonical writes the canonical JSON of p (its members in RFC 8785 order,
// each omitted where encoding/json's omitempty omits it); ok false: use
// canon.Marshal. Content and Data are canonicalised; an error is theirs.
func (p Payload) canonical() (b []byte, ok bool, err error) {
	w := newCanonWriter(256 + len(p.Content) + len(p.Data))
	w.optStr("classification", p.Classification)
	w.optFloat("confidence", p.Confidence)
	w.optRaw("content", p.Content)
	w.optStr("content_hash", p.ContentHash)
	w.optRaw("data", p.Data)
	w.optStr("expires_at", p.ExpiresAt)
	w.optStr("key", p.Key)
	w.optStr("layer", p.Layer)
	w.optStr("merged_from", p.MergedFrom)
	w.optStr("reason", p.Reason)
	w.str("salt", p.Salt)
	w.optStrings("tags", p.Tags)
	w.optFloat("validation_score", p.ValidationScore)
	return w.done()
}
