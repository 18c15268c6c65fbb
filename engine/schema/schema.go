// Package schema is memgov's schema gate: the first gate of the write path,
// which checks a memory write request against the JSON Schema (2020-12) of
// its target layer before any other gate sees it.
//
// The schemas are embedded files, one shared request schema and one per
// layer (WORKING, SESSION, EPISODIC, SEMANTIC, PROCEDURAL), compiled once.
// A policy may replace any of them with LoadOverrides. Besides the standard
// keywords, the schemas may use "maxBytes", a limit on a string's length in
// UTF-8 bytes, and "format" is asserted (date-time must be RFC 3339).
//
// A request that fails validation yields an *Error listing every violation
// as a JSON pointer and a short human message.
package schema

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The memory layers a request may target.
const (
	Working    = "WORKING"
	Session    = "SESSION"
	Episodic   = "EPISODIC"
	Semantic   = "SEMANTIC"
	Procedural = "PROCEDURAL"
)

// Layers returns the layer names, from the least to the most durable.
func Layers() []string {
	return []string{Working, Session, Episodic, Semantic, Procedural}
}

// ErrUnknownLayer is returned by Validate for a layer that is not one of
// Layers.
var ErrUnknownLayer = errors.New("schema: unknown memory layer")

//go:embed schemas/*.schema.json
var embedded embed.FS

const (
	baseURL     = "https://memgov.dev/schemas/"
	requestFile = "request.schema.json"
	// maxSchemaFile bounds the size of an override schema file.
	maxSchemaFile = 1 << 20
)

// MaxRequestBytes bounds the size of the JSON document ValidateJSON accepts.
// A request within the schemas' own limits is far smaller.
const MaxRequestBytes = 1 << 20

// fileName returns the schema file of a layer: "working.schema.json".
func fileName(layer string) string {
	b := []byte(layer)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b) + ".schema.json"
}

// Validator checks write requests against one compiled set of schemas. It is
// safe for concurrent use.
type Validator struct {
	request *jsonschema.Schema
	layers  map[string]*jsonschema.Schema
}

var defaultValidator = sync.OnceValues(func() (*Validator, error) {
	return compile(nil)
})

// Default returns the Validator of the embedded schemas, compiled on first
// use.
func Default() (*Validator, error) { return defaultValidator() }

// Validate checks doc, a decoded JSON request, against the schema of layer
// using the embedded schemas. See Validator.Validate.
func Validate(layer string, doc any) error {
	v, err := Default()
	if err != nil {
		return err
	}
	return v.Validate(layer, doc)
}

// ValidateJSON checks the JSON request raw using the embedded schemas. See
// Validator.ValidateJSON.
func ValidateJSON(raw []byte) error {
	v, err := Default()
	if err != nil {
		return err
	}
	return v.ValidateJSON(raw)
}

// LoadOverrides returns a Validator whose schemas are the embedded ones, except
// those replaced by files in dir: request.schema.json for the shared request
// schema and <layer>.schema.json (working.schema.json, ...) for a layer.
// Other files are ignored; dir itself must exist. An override's "$id" is set
// to that of the file it replaces, so a layer schema can keep referring to
// "request.schema.json". References outside these files are refused.
func LoadOverrides(dir string) (*Validator, error) {
	overrides := make(map[string]any)
	for _, name := range append([]string{requestFile}, layerFiles()...) {
		data, err := readLimited(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("schema: override %s: %w", name, err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("schema: override %s: invalid JSON: %w", name, err)
		}
		overrides[name] = doc
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("schema: overrides: %w", err)
	}
	return compile(overrides)
}

func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSchemaFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxSchemaFile {
		return nil, fmt.Errorf("larger than %d bytes", maxSchemaFile)
	}
	return data, nil
}

func layerFiles() []string {
	var names []string
	for _, l := range Layers() {
		names = append(names, fileName(l))
	}
	return names
}

// noLoader refuses every URL: schemas may refer only to one another.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema: reference to %s outside the memgov schemas", url)
}

// compile compiles the embedded schemas, replacing those named in overrides
// (by file name) with the given decoded documents.
func compile(overrides map[string]any) (*Validator, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.AssertVocabs()
	vocab, err := maxBytesVocabulary()
	if err != nil {
		return nil, fmt.Errorf("schema: maxBytes vocabulary: %w", err)
	}
	c.RegisterVocabulary(vocab)
	c.UseLoader(noLoader{})
	for _, name := range append([]string{requestFile}, layerFiles()...) {
		doc, ok := overrides[name]
		if !ok {
			data, err := embedded.ReadFile("schemas/" + name)
			if err != nil {
				return nil, fmt.Errorf("schema: %s: %w", name, err)
			}
			if doc, err = jsonschema.UnmarshalJSON(bytes.NewReader(data)); err != nil {
				return nil, fmt.Errorf("schema: %s: %w", name, err)
			}
		} else if obj, isObj := doc.(map[string]any); isObj {
			obj["$id"] = baseURL + name
		}
		if err := c.AddResource(baseURL+name, doc); err != nil {
			return nil, fmt.Errorf("schema: %s: %w", name, err)
		}
	}
	v := &Validator{layers: make(map[string]*jsonschema.Schema)}
	if v.request, err = c.Compile(baseURL + requestFile); err != nil {
		return nil, fmt.Errorf("schema: compile %s: %w", requestFile, err)
	}
	for _, l := range Layers() {
		if v.layers[l], err = c.Compile(baseURL + fileName(l)); err != nil {
			return nil, fmt.Errorf("schema: compile %s: %w", fileName(l), err)
		}
	}
	return v, nil
}

// Validate checks doc against the schema of layer, one of Layers. doc is a
// decoded JSON value, as produced by a json.Decoder with UseNumber (numbers
// as json.Number) or by json.Unmarshal into an any. It returns nil, an *Error
// listing the violations, or an error wrapping ErrUnknownLayer. The layer
// schema requires target_layer to name layer.
func (v *Validator) Validate(layer string, doc any) error {
	sch, ok := v.layers[layer]
	if !ok {
		return ErrUnknownLayer
	}
	return check(sch, layer, doc)
}

// ValidateJSON decodes raw, a JSON write request, and checks it against the
// schema of the layer its target_layer names. When target_layer is missing
// or names no layer, the request is checked against the shared request
// schema, whose violations then include target_layer's. Malformed JSON and a
// document over MaxRequestBytes are reported as an *Error too, with a
// violation at the document root. Numbers that are too long (over 64 bytes),
// have an exponent beyond ±400 or overflow a float64 are violations as well.
func (v *Validator) ValidateJSON(raw []byte) error {
	if len(raw) > MaxRequestBytes {
		return &Error{Violations: []Violation{{Path: "", Message: fmt.Sprintf("must be at most %d bytes, got %d", MaxRequestBytes, len(raw))}}}
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return &Error{Violations: []Violation{{Path: "", Message: "is not a valid JSON document"}}}
	}
	if obj, ok := doc.(map[string]any); ok {
		if layer, ok := obj["target_layer"].(string); ok {
			if sch, ok := v.layers[layer]; ok {
				return check(sch, layer, doc)
			}
		}
	}
	return check(v.request, "", doc)
}

func check(sch *jsonschema.Schema, layer string, doc any) error {
	var bad []Violation
	checkNumbers(doc, nil, &bad)
	if len(bad) > 0 {
		return &Error{Layer: layer, Violations: sortViolations(bad)}
	}
	err := sch.Validate(doc)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return &Error{Layer: layer, Violations: []Violation{{Path: "", Message: "cannot be validated: not a decoded JSON value"}}}
	}
	return &Error{Layer: layer, Violations: violations(ve)}
}
