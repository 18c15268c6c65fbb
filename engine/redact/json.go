package redact

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// maxJSONDepth bounds the nesting of documents JSON accepts.
const maxJSONDepth = 10000

// JSON redacts every string value and every object key of the JSON document
// raw and returns it re-encoded compactly. Numbers are copied exactly as
// written, and object members keep their order. raw must hold exactly one
// JSON value; errors describe where it is malformed, never its content.
func (r *Redactor) JSON(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out bytes.Buffer
	out.Grow(len(raw))
	if err := r.copyValue(dec, &out, 0); err != nil {
		return nil, jsonError(dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("redact: invalid JSON: data after the document at offset %d", dec.InputOffset())
	}
	return out.Bytes(), nil
}

var errTooDeep = errors.New("nested too deeply")

func jsonError(dec *json.Decoder, err error) error {
	var syn *json.SyntaxError
	switch {
	case errors.Is(err, errTooDeep):
		return fmt.Errorf("redact: invalid JSON: %w", err)
	case errors.As(err, &syn):
		return fmt.Errorf("redact: invalid JSON: syntax error at offset %d", syn.Offset)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("redact: invalid JSON: unexpected end of input: %w", io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("redact: invalid JSON at offset %d", dec.InputOffset())
}

func (r *Redactor) copyValue(dec *json.Decoder, out *bytes.Buffer, depth int) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxJSONDepth {
			return errTooDeep
		}
		open, isObject := byte(t), t == '{'
		if t != '{' && t != '[' {
			return &json.SyntaxError{Offset: dec.InputOffset()}
		}
		out.WriteByte(open)
		for n := 0; dec.More(); n++ {
			if n > 0 {
				out.WriteByte(',')
			}
			if isObject {
				key, err := dec.Token()
				if err != nil {
					return err
				}
				k, ok := key.(string)
				if !ok {
					return &json.SyntaxError{Offset: dec.InputOffset()}
				}
				r.writeString(out, k)
				out.WriteByte(':')
			}
			if err := r.copyValue(dec, out, depth+1); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return err
		}
		if isObject {
			out.WriteByte('}')
		} else {
			out.WriteByte(']')
		}
	case string:
		r.writeString(out, t)
	case json.Number:
		out.WriteString(string(t))
	case bool:
		if t {
			out.WriteString("true")
		} else {
			out.WriteString("false")
		}
	case nil:
		out.WriteString("null")
	default:
		return &json.SyntaxError{Offset: dec.InputOffset()}
	}
	return nil
}

func (r *Redactor) writeString(out *bytes.Buffer, s string) {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(r.String(s)) // encoding a string cannot fail
	out.Truncate(out.Len() - 1) // Encode appends a newline
}
