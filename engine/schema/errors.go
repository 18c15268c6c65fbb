package schema

import (
	"cmp"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// ErrInvalid matches every *Error with errors.Is.
var ErrInvalid = errors.New("schema: invalid write request")

// Violation is one way a request breaks its schema.
type Violation struct {
	// Path is a JSON pointer (RFC 6901) to the offending value, such as
	// "/evidence_refs/0/authority"; "" is the whole document. For a missing
	// or disallowed property it points at the property itself.
	Path string
	// Message says what is wrong, for people: "must be <= 1, got 1.7".
	Message string
}

// String returns the path and the message: "/confidence: must be <= 1".
func (v Violation) String() string {
	p := v.Path
	if p == "" {
		p = "(document)"
	}
	return p + ": " + v.Message
}

// Error is a request that failed the schema gate.
type Error struct {
	Layer      string      // the layer whose schema was applied; "" for the shared request schema
	Violations []Violation // sorted by path, never empty
}

// maxListed bounds the violations Error spells out.
const maxListed = 8

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("schema: invalid write request")
	if e.Layer != "" {
		b.WriteString(" for layer ")
		b.WriteString(e.Layer)
	}
	for i, v := range e.Violations {
		if i == maxListed {
			fmt.Fprintf(&b, "; and %d more", len(e.Violations)-maxListed)
			break
		}
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString(v.String())
	}
	return b.String()
}

// Is reports whether target is ErrInvalid.
func (e *Error) Is(target error) bool { return target == ErrInvalid }

// violations flattens the tree of a validation error into its leaves,
// sorted by path and without duplicates.
func violations(ve *jsonschema.ValidationError) []Violation {
	var out []Violation
	collect(ve, &out)
	if len(out) == 0 {
		out = append(out, Violation{Path: pointer(ve.InstanceLocation), Message: "does not match the schema"})
	}
	return sortViolations(out)
}

// sortViolations sorts vs by path and message and drops duplicates.
func sortViolations(vs []Violation) []Violation {
	slices.SortStableFunc(vs, func(a, b Violation) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Message, b.Message))
	})
	return slices.Compact(vs)
}

func collect(e *jsonschema.ValidationError, out *[]Violation) {
	switch k := e.ErrorKind.(type) {
	case *kind.AnyOf:
		alternatives(e, out)
		return
	case *kind.OneOf:
		if len(k.Subschemas) == 0 {
			alternatives(e, out)
		} else {
			*out = append(*out, Violation{pointer(e.InstanceLocation), "matches more than one of the allowed forms"})
		}
		return
	}
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			collect(c, out)
		}
		return
	}
	*out = append(*out, leaf(e)...)
}

// alternatives reports an anyOf or oneOf that no branch satisfied. When every
// branch only misses properties, it names them together; otherwise it
// reports the branch that came closest.
func alternatives(e *jsonschema.ValidationError, out *[]Violation) {
	var best []Violation
	var missing []string
	onlyMissing := true
	for _, c := range e.Causes {
		var vs []Violation
		collect(c, &vs)
		for _, lf := range leaves(c) {
			if r, ok := lf.ErrorKind.(*kind.Required); ok && slices.Equal(lf.InstanceLocation, e.InstanceLocation) {
				missing = append(missing, r.Missing...)
			} else {
				onlyMissing = false
			}
		}
		if best == nil || len(vs) < len(best) {
			best = vs
		}
	}
	if onlyMissing && len(missing) > 0 {
		*out = append(*out, Violation{pointer(e.InstanceLocation), "must have at least one of the properties " + quoteAll(missing, " or ")})
		return
	}
	if len(best) == 0 {
		best = []Violation{{pointer(e.InstanceLocation), "does not match any of the allowed forms"}}
	}
	*out = append(*out, best...)
}

func leaves(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return []*jsonschema.ValidationError{e}
	}
	var ls []*jsonschema.ValidationError
	for _, c := range e.Causes {
		ls = append(ls, leaves(c)...)
	}
	return ls
}

// leaf turns one error without causes into violations with human messages.
// Messages echo numbers and limits, never a string the request carried.
func leaf(e *jsonschema.ValidationError) []Violation {
	loc := e.InstanceLocation
	at := func(msg string) []Violation { return []Violation{{pointer(loc), msg}} }
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		var vs []Violation
		for _, m := range k.Missing {
			vs = append(vs, Violation{pointer(append(slices.Clip(loc), m)), "is required"})
		}
		return vs
	case *kind.DependentRequired:
		var vs []Violation
		for _, m := range k.Missing {
			vs = append(vs, Violation{pointer(append(slices.Clip(loc), m)), fmt.Sprintf("is required when %q is present", k.Prop)})
		}
		return vs
	case *kind.AdditionalProperties:
		var vs []Violation
		for _, p := range k.Properties {
			vs = append(vs, Violation{pointer(append(slices.Clip(loc), p)), "is not allowed"})
		}
		return vs
	case *kind.Type:
		return at(fmt.Sprintf("must be %s, got %s", typeNames(k.Want), k.Got))
	case *kind.Enum:
		return at("must be one of " + displayAll(k.Want))
	case *kind.Const:
		return at("must be " + display(k.Want))
	case *kind.Format:
		if k.Want == "date-time" {
			return at("must be an RFC 3339 date-time, such as 2026-05-10T14:30:00Z")
		}
		return at("must be a valid " + k.Want)
	case *maxBytesError:
		return at(fmt.Sprintf("must be at most %d bytes, got %d", k.Want, k.Got))
	case *kind.MinLength:
		if k.Want == 1 {
			return at("must not be empty")
		}
		return at(fmt.Sprintf("must be at least %d characters, got %d", k.Want, k.Got))
	case *kind.MaxLength:
		return at(fmt.Sprintf("must be at most %d characters, got %d", k.Want, k.Got))
	case *kind.Pattern:
		return at("must match the pattern " + k.Want)
	case *kind.Minimum:
		return at(fmt.Sprintf("must be >= %s, got %s", rat(k.Want), rat(k.Got)))
	case *kind.Maximum:
		return at(fmt.Sprintf("must be <= %s, got %s", rat(k.Want), rat(k.Got)))
	case *kind.ExclusiveMinimum:
		return at(fmt.Sprintf("must be > %s, got %s", rat(k.Want), rat(k.Got)))
	case *kind.ExclusiveMaximum:
		return at(fmt.Sprintf("must be < %s, got %s", rat(k.Want), rat(k.Got)))
	case *kind.MultipleOf:
		return at(fmt.Sprintf("must be a multiple of %s", rat(k.Want)))
	case *kind.MinItems:
		return at(fmt.Sprintf("must have at least %d %s, got %d", k.Want, plural(k.Want, "item"), k.Got))
	case *kind.MaxItems:
		return at(fmt.Sprintf("must have at most %d %s, got %d", k.Want, plural(k.Want, "item"), k.Got))
	case *kind.UniqueItems:
		return at(fmt.Sprintf("must not repeat an item: items %d and %d are equal", k.Duplicates[0], k.Duplicates[1]))
	case *kind.MinProperties:
		return at(fmt.Sprintf("must have at least %d %s, got %d", k.Want, plural(k.Want, "property"), k.Got))
	case *kind.MaxProperties:
		return at(fmt.Sprintf("must have at most %d %s, got %d", k.Want, plural(k.Want, "property"), k.Got))
	case *kind.FalseSchema:
		return at("is not allowed")
	case *kind.Not:
		return at("matches a form that is not allowed")
	case *kind.InvalidJsonValue:
		return at("is not a JSON value")
	}
	if kw := e.ErrorKind.KeywordPath(); len(kw) > 0 {
		return at(fmt.Sprintf("fails the %q constraint", strings.Join(kw, "/")))
	}
	return at("does not match the schema")
}

// pointer encodes tokens as a JSON pointer (RFC 6901).
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		t = strings.ReplaceAll(t, "~", "~0")
		b.WriteString(strings.ReplaceAll(t, "/", "~1"))
	}
	return b.String()
}

func typeNames(want []string) string {
	names := make([]string, len(want))
	for i, w := range want {
		switch w {
		case "object", "array", "integer":
			names[i] = "an " + w
		case "null":
			names[i] = "null"
		default:
			names[i] = "a " + w
		}
	}
	return strings.Join(names, " or ")
}

func display(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case nil:
		return "null"
	case []any, map[string]any:
		return "the value given by the schema"
	}
	return fmt.Sprint(v)
}

func displayAll(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = display(v)
	}
	return strings.Join(parts, ", ")
}

func quoteAll(names []string, sep string) string {
	names = slices.Compact(slices.Sorted(slices.Values(names)))
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = strconv.Quote(n)
	}
	return strings.Join(parts, sep)
}

// rat formats a number exactly when it is an integer and as the shortest
// float64 otherwise.
func rat(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() && r.Num().BitLen() <= 64 {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	if strings.HasSuffix(word, "y") {
		return word[:len(word)-1] + "ies"
	}
	return word + "s"
}
