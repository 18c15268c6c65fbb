package door

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/host"
)

// apiError is the body of every error answer: a stable code and a message.
type apiError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Error codes of the JSON API (and of MCP tool errors).
const (
	CodeInvalid          = "INVALID"
	CodeUnauthorized     = "UNAUTHORIZED"
	CodeForbidden        = "FORBIDDEN"
	CodeNotFound         = "NOT_FOUND"
	CodeMethodNotAllowed = "METHOD_NOT_ALLOWED"
	CodeConflict         = "CONFLICT"
	CodeTooLarge         = "TOO_LARGE"
	CodeRateLimited      = "RATE_LIMITED"
	CodeTimeout          = "TIMEOUT"
	CodeUnavailable      = "UNAVAILABLE"
	CodeInternal         = "INTERNAL"
)

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	_, _ = w.Write(withoutZeroTimes(b.Bytes()))
}

// zeroTime is how encoding/json writes an unset time.Time.
const zeroTime = `"0001-01-01T00:00:00Z"`

// withoutZeroTimes drops the members whose value is the zero time (an
// unset claim expiry, say): an answer never states a time that is not one.
// Numbers are kept as written.
func withoutZeroTimes(b []byte) []byte {
	if !bytes.Contains(b, []byte(zeroTime)) {
		return b
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return b
	}
	var drop func(any) any
	drop = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, m := range x {
				if s, ok := m.(string); ok && `"`+s+`"` == zeroTime {
					delete(x, k)
					continue
				}
				x[k] = drop(m)
			}
		case []any:
			for i := range x {
				x[i] = drop(x[i])
			}
		}
		return v
	}
	out, err := jsonMarshal(drop(v))
	if err != nil {
		return b
	}
	return append(out, '\n')
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, apiError{Code: code, Message: msg})
}

// classify maps an error to an HTTP status and code. Messages of engine
// errors are the engine's (they never carry memory content); anything the
// engine did not classify is an internal error whose cause is logged, not
// shown.
func classify(err error) (int, string, string) {
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return http.StatusRequestEntityTooLarge, CodeTooLarge, fmt.Sprintf("the request body is larger than %d bytes", tooLarge.Limit)
	case errors.Is(err, memgov.ErrUnauthorized):
		return http.StatusUnauthorized, CodeUnauthorized, err.Error()
	case errors.Is(err, memgov.ErrForbidden):
		return http.StatusForbidden, CodeForbidden, err.Error()
	case errors.Is(err, memgov.ErrNotFound):
		return http.StatusNotFound, CodeNotFound, err.Error()
	case errors.Is(err, memgov.ErrInvalid):
		return http.StatusBadRequest, CodeInvalid, strings.TrimPrefix(err.Error(), memgov.ErrInvalid.Error()+": ")
	case errors.Is(err, memgov.ErrConflict):
		return http.StatusConflict, CodeConflict, err.Error()
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusGatewayTimeout, CodeTimeout, "the request took longer than the server's time-out"
	case errors.Is(err, host.ErrMemoryUnavailable):
		return http.StatusServiceUnavailable, CodeUnavailable, host.ErrMemoryUnavailable.Error()
	}
	return http.StatusInternalServerError, CodeInternal, "internal error"
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	status, code, msg := classify(err)
	if status >= 500 {
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	writeError(w, status, code, msg)
}

// recoverer turns a panic in a handler into a 500 JSON answer. Writes run
// in one transaction, so a panic never leaves a partial write behind.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("panic", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(v))
				writeError(w, http.StatusInternalServerError, CodeInternal, "internal error")
			}
		}()
		next.ServeHTTP(w, r)
	})
}
