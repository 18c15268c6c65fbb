package door

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/memgov/memgov"
)

type principalKey struct{}

// principalFrom returns the authenticated principal of a request's context.
func principalFrom(ctx context.Context) (memgov.Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(memgov.Principal)
	return p, ok
}

func withPrincipal(ctx context.Context, p memgov.Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// bearer returns the token of an Authorization: Bearer header.
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}

// authenticated admits requests carrying a live bearer token, within its
// rate limit and body size limit, and puts the token's principal in the
// request's context: the principal every engine call of the request acts as.
func (s *Server) authenticated(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addr := remoteHost(r)
		if blocked, wait := s.failures.blocked(addr); blocked {
			retryAfter(w, wait)
			writeError(w, http.StatusTooManyRequests, CodeRateLimited, fmt.Sprintf("too many requests from %s without a live token; retry in %s", addr, wait.Round(time.Second)))
			return
		}
		tok, ok := bearer(r)
		if !ok {
			s.failures.failed(addr)
			w.Header().Set("WWW-Authenticate", `Bearer realm="memgov"`)
			writeError(w, http.StatusUnauthorized, CodeUnauthorized, "send Authorization: Bearer TOKEN, a token memgov issued to your principal")
			return
		}
		p, err := s.eng.Authenticate(r.Context(), tok)
		if err != nil {
			if errors.Is(err, memgov.ErrUnauthorized) {
				s.failures.failed(addr)
			}
			w.Header().Set("WWW-Authenticate", `Bearer realm="memgov", error="invalid_token"`)
			s.fail(w, r, err)
			return
		}
		noteInfo(r.Context(), p.ID)
		if ok, wait := s.limiter.allow(memgov.HashToken(tok)); !ok {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
			writeError(w, http.StatusTooManyRequests, CodeRateLimited, fmt.Sprintf("this token's rate limit is %g requests a second; retry in %s", s.cfg.Rate, wait.Round(time.Millisecond)))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
		next.ServeHTTP(w, r.WithContext(withPrincipal(r.Context(), p)))
	})
}

// limiter is a token bucket per key (a token's hash).
type limiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	now     func() time.Time
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(rate float64, burst int, now func() time.Time) *limiter {
	return &limiter{rate: rate, burst: float64(burst), now: now, buckets: map[string]*bucket{}}
}

// allow takes one request from key's bucket, or reports how long until one
// is available.
func (l *limiter) allow(key string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) > 100000 {
			l.buckets = map[string]*bucket{} // bounded memory under a flood of tokens
		}
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	if el := now.Sub(b.last).Seconds(); el > 0 {
		b.tokens = math.Min(l.burst, b.tokens+el*l.rate)
		b.last = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
}
