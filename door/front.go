package door

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
)

// The front of every HTTP request, before any route: one log line per
// request, no redirect for a path that is not clean, and a limit on
// requests from an address whose tokens keep failing.

// reqInfo is what the front learns of a request while it is served: the
// principal, once authenticated, for the request's log line.
type reqInfo struct{ principal string }

type reqInfoKey struct{}

// noteInfo records the authenticated principal for the request's log line.
func noteInfo(ctx context.Context, principal string) {
	if ri, ok := ctx.Value(reqInfoKey{}).(*reqInfo); ok {
		ri.principal = principal
	}
}

// logWriter records the status and size of an answer; it passes Flush on,
// which MCP's streamable transport needs.
type logWriter struct {
	http.ResponseWriter
	code  int
	bytes int64
}

func (w *logWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *logWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

func (w *logWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *logWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logged writes one line per request to the server's logger (log/slog):
// method, path, status, duration and the principal ("-" when none was
// authenticated). The query string is left out: it may carry a ref or a key.
func (s *Server) logged(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ri := &reqInfo{}
		lw := &logWriter{ResponseWriter: w}
		defer func() {
			code := lw.code
			if code == 0 {
				code = http.StatusOK
			}
			who := ri.principal
			if who == "" {
				who = "-"
			}
			level := slog.LevelInfo
			if code >= 500 {
				level = slog.LevelError
			}
			s.log.LogAttrs(r.Context(), level, "request",
				slog.String("method", r.Method), slog.String("path", clipPath(r.URL.EscapedPath())),
				slog.Int("status", code), slog.Duration("duration", time.Since(start)),
				slog.String("principal", who), slog.Int64("bytes", lw.bytes))
		}()
		next.ServeHTTP(lw, r.WithContext(context.WithValue(r.Context(), reqInfoKey{}, ri)))
	})
}

func clipPath(p string) string {
	if len(p) > 256 {
		return p[:256] + "..."
	}
	return p
}

// cleanPaths answers a JSON 404 for a path that is not clean (dot
// segments, doubled slashes, also when escaped): http.ServeMux would answer
// them with a redirect to the cleaned path, which a JSON client does not
// expect and which would turn "/v1/memories/../../etc/passwd" into another
// route.
func (s *Server) cleanPaths(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if !cleanPath(p) || !cleanPath(strings.ReplaceAll(r.URL.EscapedPath(), "%2F", "/")) || r.URL.Path == "" {
			writeError(w, http.StatusNotFound, CodeNotFound, fmt.Sprintf("no route %s %s: the path has dot segments or doubled slashes (see /v1/openapi.json)", r.Method, clipPath(r.URL.EscapedPath())))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// cleanPath reports whether p is absolute and path.Clean leaves it as it
// is (a trailing slash aside).
func cleanPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	if c != p {
		return false
	}
	lower := strings.ToLower(p)
	return !strings.Contains(lower, "%2e") && !strings.Contains(lower, "%2f%2f")
}

// remoteHost is the address a request came from, without its port.
func remoteHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// authFailures limits requests from an address after its tokens failed:
// each failed authentication (no token, or a token that is not live) takes
// one from the address's bucket; an address whose bucket is empty is
// answered 429 before its token is looked at, until the bucket refills.
// Addresses are kept in a bounded table (maxAddrs).
type authFailures struct {
	*limiter
}

// maxAddrs bounds the addresses the failure limiter remembers.
const maxAddrs = 10000

// blocked reports whether addr has no failures left, and how long until it has.
func (f authFailures) blocked(addr string) (bool, time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := f.buckets[addr]
	if b == nil {
		return false, 0
	}
	f.refill(b)
	if b.tokens >= 1 {
		return false, 0
	}
	return true, time.Duration((1 - b.tokens) / f.rate * float64(time.Second))
}

// failed takes one from addr's bucket.
func (f authFailures) failed(addr string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := f.buckets[addr]
	if b == nil {
		if len(f.buckets) >= maxAddrs {
			f.prune()
		}
		b = &bucket{tokens: f.burst, last: f.now()}
		f.buckets[addr] = b
	}
	f.refill(b)
	b.tokens = math.Max(0, b.tokens-1)
}

// prune forgets the addresses whose buckets have refilled (they are as if
// new); if the table is still full, it forgets those last seen before the
// midpoint of the oldest and the newest.
func (l *limiter) prune() {
	for k, b := range l.buckets {
		l.refill(b)
		if b.tokens >= l.burst {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) < maxAddrs {
		return
	}
	ts := make([]time.Time, 0, len(l.buckets))
	for _, b := range l.buckets {
		ts = append(ts, b.last)
	}
	cut := midTime(ts)
	for k, b := range l.buckets {
		if !b.last.After(cut) {
			delete(l.buckets, k)
		}
	}
}

func midTime(ts []time.Time) time.Time {
	lo, hi := ts[0], ts[0]
	for _, t := range ts {
		if t.Before(lo) {
			lo = t
		}
		if t.After(hi) {
			hi = t
		}
	}
	return lo.Add(hi.Sub(lo) / 2)
}

func (l *limiter) refill(b *bucket) {
	now := l.now()
	if el := now.Sub(b.last).Seconds(); el > 0 {
		b.tokens = math.Min(l.burst, b.tokens+el*l.rate)
		b.last = now
	}
}

func retryAfter(w http.ResponseWriter, wait time.Duration) {
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
}
