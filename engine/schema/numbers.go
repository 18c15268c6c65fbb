package schema

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// maxNumberLen and maxExponent bound the numbers a request may carry. The
// validator turns every number into an exact rational, which for a number
// such as 1e99999999 would take unbounded time and memory.
const (
	maxNumberLen = 64
	maxExponent  = 400
)

// checkNumbers reports, as violations, the numbers in doc that are too long,
// have too large an exponent, or do not fit a float64.
func checkNumbers(doc any, path []string, out *[]Violation) {
	switch v := doc.(type) {
	case map[string]any:
		for k, x := range v {
			checkNumbers(x, append(path, k), out)
		}
	case []any:
		for i, x := range v {
			checkNumbers(x, append(path, strconv.Itoa(i)), out)
		}
	case json.Number:
		if !numberInRange(string(v)) {
			*out = append(*out, Violation{pointer(path), "is a number out of range"})
		}
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			*out = append(*out, Violation{pointer(path), "is a number out of range"})
		}
	}
}

func numberInRange(s string) bool {
	if len(s) > maxNumberLen {
		return false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		exp, err := strconv.Atoi(s[i+1:])
		if err != nil || exp > maxExponent || exp < -maxExponent {
			return false
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && !math.IsInf(f, 0)
}
