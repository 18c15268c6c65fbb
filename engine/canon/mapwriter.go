package canon

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"unicode/utf8"
)

var (
	// ErrKeyOrder reports a map key that is not strictly greater, in
	// RFC 8785 order, than the key before it.
	ErrKeyOrder = errors.New("canon: map keys not in strictly increasing RFC 8785 order")
	// ErrInvalidEntry reports a key that is not valid UTF-8 or a value
	// that cannot be canonical JSON.
	ErrInvalidEntry = errors.New("canon: invalid map entry")
	// ErrClosed reports a write after a map or digest was finished.
	ErrClosed = errors.New("canon: write after finish")
)

// flushSize is how many bytes a MapWriter buffers before writing them on.
const flushSize = 32 << 10

// A MapWriter writes the canonical JSON object {"k1":v1,"k2":v2,...} to an
// io.Writer, one member at a time. Members must be added in strictly
// increasing key order ([CompareKeys]), each value already canonical. Given
// that, the output is the RFC 8785 canonical form of the map.
//
// A MapWriter buffers its output; call Close to finish the object and flush
// it. After an error, every later call returns the same error. A MapWriter
// is not safe for concurrent use.
type MapWriter struct {
	w      io.Writer
	buf    []byte
	n      int64 // bytes written to w
	count  int   // members added
	prev   string
	err    error
	closed bool
}

// NewMapWriter returns a MapWriter that writes to w.
func NewMapWriter(w io.Writer) *MapWriter {
	return &MapWriter{w: w}
}

// Add writes the member key:canonicalValue. The key must be valid UTF-8
// and greater than the previous key by [CompareKeys]; otherwise Add returns
// an error wrapping [ErrKeyOrder] or [ErrInvalidEntry] and writes nothing.
//
// canonicalValue must be the canonical JSON of the value, as returned by
// [Canonicalize] or [Marshal]. Add checks only that it is not empty and
// does not start or end with a byte a canonical value cannot; it does not
// re-canonicalise it.
func (m *MapWriter) Add(key string, canonicalValue []byte) error {
	if m.err != nil {
		return m.err
	}
	if m.closed {
		return ErrClosed
	}
	if err := checkEntry(key, canonicalValue); err != nil {
		m.err = err
		return err
	}
	if m.count > 0 && CompareKeys(m.prev, key) >= 0 {
		m.err = fmt.Errorf("%w: %s after %s", ErrKeyOrder, excerpt(key), excerpt(m.prev))
		return m.err
	}
	m.prev = key
	if m.count == 0 {
		m.buf = append(m.buf, '{')
	} else {
		m.buf = append(m.buf, ',')
	}
	m.count++
	m.buf = appendString(m.buf, key)
	m.buf = append(m.buf, ':')
	if len(canonicalValue) >= flushSize {
		// Write a large value straight through rather than copying it.
		if err := m.flush(); err != nil {
			return err
		}
		if err := m.write(canonicalValue); err != nil {
			return err
		}
		return nil
	}
	m.buf = append(m.buf, canonicalValue...)
	if len(m.buf) >= flushSize {
		return m.flush()
	}
	return nil
}

// Close writes the end of the object ("{}" for an empty map) and flushes
// the buffered bytes. It does not close the underlying writer. Calling
// Close again returns the result of the first call.
func (m *MapWriter) Close() error {
	if m.err != nil || m.closed {
		return m.err
	}
	m.closed = true
	if m.count == 0 {
		m.buf = append(m.buf, '{')
	}
	m.buf = append(m.buf, '}')
	return m.flush()
}

// N returns the number of bytes written to the underlying writer so far.
func (m *MapWriter) N() int64 { return m.n }

// Len returns the number of members added so far.
func (m *MapWriter) Len() int { return m.count }

func (m *MapWriter) flush() error {
	if len(m.buf) == 0 {
		return nil
	}
	err := m.write(m.buf)
	m.buf = m.buf[:0]
	return err
}

func (m *MapWriter) write(p []byte) error {
	n, err := m.w.Write(p)
	m.n += int64(n)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		m.err = fmt.Errorf("canon: write map: %w", err)
	}
	return m.err
}

// checkEntry rejects keys that are not valid UTF-8 and values that are
// plainly not canonical JSON: empty, or starting or ending with a byte that
// no canonical value starts or ends with (such as whitespace).
func checkEntry(key string, value []byte) error {
	if !utf8.ValidString(key) {
		return fmt.Errorf("%w: key %s is not valid UTF-8", ErrInvalidEntry, excerpt(key))
	}
	if len(value) == 0 {
		return fmt.Errorf("%w: empty value for key %s", ErrInvalidEntry, excerpt(key))
	}
	switch c := value[0]; {
	case c == '{' || c == '[' || c == '"' || c == '-' || c == 't' || c == 'f' || c == 'n':
	case '0' <= c && c <= '9':
	default:
		return fmt.Errorf("%w: value for key %s starts with byte 0x%02x", ErrInvalidEntry, excerpt(key), c)
	}
	switch c := value[len(value)-1]; {
	case c == '}' || c == ']' || c == '"' || c == 'e' || c == 'l':
	case '0' <= c && c <= '9':
	default:
		return fmt.Errorf("%w: value for key %s ends with byte 0x%02x", ErrInvalidEntry, excerpt(key), c)
	}
	return nil
}

// appendString appends s as a JSON string escaped as RFC 8785 3.2.2.2
// requires: '"' and '\\' escaped, the control characters \b \f \n \r \t
// in their short forms, other control characters as \u00xx (lowercase
// hex), everything else as is.
func appendString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		buf = append(buf, s[start:i]...)
		switch c {
		case '"', '\\':
			buf = append(buf, '\\', c)
		case '\b':
			buf = append(buf, '\\', 'b')
		case '\f':
			buf = append(buf, '\\', 'f')
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\r':
			buf = append(buf, '\\', 'r')
		case '\t':
			buf = append(buf, '\\', 't')
		default:
			buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		}
		start = i + 1
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// WriteMap writes the canonical JSON object of entries to w, as a
// [MapWriter] does, and returns the number of bytes written. The entries
// must come in strictly increasing key order with canonical values.
func WriteMap(w io.Writer, entries iter.Seq2[string, []byte]) (n int64, err error) {
	m := NewMapWriter(w)
	for k, v := range entries {
		if err := m.Add(k, v); err != nil {
			return m.N(), err
		}
	}
	err = m.Close()
	return m.N(), err
}
