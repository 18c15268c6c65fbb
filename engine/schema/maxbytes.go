package schema

import (
	"fmt"
	"math"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// The "maxBytes" keyword limits a string's length in UTF-8 bytes, where the
// standard maxLength counts code points.
const maxBytesURL = "https://memgov.dev/schemas/vocab/max-bytes"

func maxBytesVocabulary() (*jsonschema.Vocabulary, error) {
	meta, err := jsonschema.UnmarshalJSON(strings.NewReader(
		`{"properties": {"maxBytes": {"type": "integer", "minimum": 0}}}`))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(maxBytesURL, meta); err != nil {
		return nil, err
	}
	sch, err := c.Compile(maxBytesURL)
	if err != nil {
		return nil, err
	}
	return &jsonschema.Vocabulary{URL: maxBytesURL, Schema: sch, Compile: compileMaxBytes}, nil
}

func compileMaxBytes(_ *jsonschema.CompilerContext, obj map[string]any) (jsonschema.SchemaExt, error) {
	v, ok := obj["maxBytes"]
	if !ok {
		return nil, nil
	}
	n, err := nonNegativeInt(v)
	if err != nil {
		return nil, fmt.Errorf("maxBytes: %w", err)
	}
	return maxBytes(n), nil
}

func nonNegativeInt(v any) (int, error) {
	var f float64
	switch v := v.(type) {
	case interface{ Float64() (float64, error) }: // json.Number
		var err error
		if f, err = v.Float64(); err != nil {
			return 0, fmt.Errorf("not a number")
		}
	case float64:
		f = v
	case int:
		f = float64(v)
	default:
		return 0, fmt.Errorf("not a number")
	}
	if f < 0 || f != math.Trunc(f) || f > math.MaxInt32 {
		return 0, fmt.Errorf("not a non-negative integer")
	}
	return int(f), nil
}

type maxBytes int

func (m maxBytes) Validate(ctx *jsonschema.ValidatorContext, v any) {
	if s, ok := v.(string); ok && len(s) > int(m) {
		ctx.AddError(&maxBytesError{&kind.MaxLength{Got: len(s), Want: int(m)}})
	}
}

// maxBytesError is the error kind of the maxBytes keyword. It borrows the
// library's message for maxLength, which memgov replaces with its own.
type maxBytesError struct{ *kind.MaxLength }

func (*maxBytesError) KeywordPath() []string { return []string{"maxBytes"} }
