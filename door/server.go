// Package door is memgov's network front: `memgov serve` (an HTTP JSON API
// under /v1, MCP over streamable HTTP at /mcp, Prometheus metrics, health,
// signed webhooks and the review console over SSH) and `memgov mcp` (MCP over
// stdio). Every door authenticates a principal — a bearer token or an SSH key
// — and then calls the same engine and review functions as the CLI, acting as
// that principal; no governance rule lives here.
package door

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
)

// Config configures a Server. Zero values take the defaults named.
type Config struct {
	Engine *engine.Engine
	Logger *slog.Logger // default: discard
	// MaxBodyBytes bounds a request body (default memgov.MaxRequestBytes + 64 KiB).
	MaxBodyBytes int64
	// Rate and Burst bound each token's requests: Rate per second on
	// average, Burst at once (defaults 200 and 400).
	Rate  float64
	Burst int
	// FailRate and FailBurst bound the requests of one remote address
	// whose token is missing or not live: FailBurst failures at once,
	// then FailRate a second (defaults 1 and 20). Past them, the address
	// is answered 429 before its token is looked at.
	FailRate  float64
	FailBurst int
	// RequestTimeout bounds the work of one request (default 30s).
	RequestTimeout time.Duration
	// MaxWait bounds how long a SYNC_BLOCK write waits for its review before
	// it is answered DEFERRED with its review id (default 25s; it never
	// exceeds RequestTimeout).
	MaxWait time.Duration
	// Poll is how often a waiting write checks its review (default 250ms).
	Poll time.Duration
	// Now is the clock of rate limits (default time.Now).
	Now func() time.Time
	// Registry receives the metrics (default: a new registry).
	Registry *prometheus.Registry
	// Version is memgov's version, reported to MCP clients (default "dev").
	Version string
}

// Server serves the doors over HTTP. Create it with New.
type Server struct {
	cfg      Config
	eng      *engine.Engine
	log      *slog.Logger
	limiter  *limiter
	failures authFailures
	metrics  *metrics
	mcp      http.Handler

	// drain is done when a graceful shutdown begins: waiting writes are
	// answered DEFERRED, nothing new is waited for.
	drain     context.Context
	drainStop context.CancelFunc
}

// New returns a server over cfg.Engine.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = memgov.MaxRequestBytes + 64<<10
	}
	if cfg.Rate <= 0 {
		cfg.Rate = 200
	}
	if cfg.Burst <= 0 {
		cfg.Burst = 400
	}
	if cfg.FailRate <= 0 {
		cfg.FailRate = 1
	}
	if cfg.FailBurst <= 0 {
		cfg.FailBurst = 20
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = 30 * time.Second
	}
	if cfg.MaxWait <= 0 {
		cfg.MaxWait = 25 * time.Second
	}
	if cfg.MaxWait > cfg.RequestTimeout {
		cfg.MaxWait = cfg.RequestTimeout
	}
	if cfg.Poll <= 0 {
		cfg.Poll = 250 * time.Millisecond
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	if cfg.Registry == nil {
		cfg.Registry = prometheus.NewRegistry()
	}
	s := &Server{cfg: cfg, eng: cfg.Engine, log: cfg.Logger}
	s.drain, s.drainStop = context.WithCancel(context.Background())
	s.limiter = newLimiter(cfg.Rate, cfg.Burst, cfg.Now)
	s.failures = authFailures{newLimiter(cfg.FailRate, cfg.FailBurst, cfg.Now)}
	s.metrics = newMetrics(cfg.Registry, cfg.Engine)
	s.mcp = s.mcpHTTPHandler()
	return s
}

// Registry returns the registry the server's metrics are in.
func (s *Server) Registry() *prometheus.Registry { return s.cfg.Registry }

// Handler returns every HTTP route: /healthz, /metrics, /mcp and /v1.
// Every request is logged (one line: method, path, status, duration,
// principal); a path that is not clean is a JSON 404, never a redirect.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.Handle("GET /metrics", s.metrics.handler(s.cfg.Registry))
	mux.Handle("/mcp", s.authenticated(s.mcp))
	s.routeAPI(mux)
	return s.logged(s.recoverer(s.cleanPaths(mux)))
}

// BeginDrain starts a graceful shutdown: every write waiting for its review
// is answered DEFERRED at once. In-flight writes still finish.
func (s *Server) BeginDrain() { s.drainStop() }

// Serve serves HTTP on ln until ctx is done, then shuts down gracefully:
// waits are answered DEFERRED, in-flight requests finish (up to grace), and
// the listener closes.
func (s *Server) Serve(ctx context.Context, ln net.Listener, grace time.Duration) error {
	srv := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       s.cfg.RequestTimeout,
		WriteTimeout:      s.cfg.RequestTimeout + 5*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.BeginDrain()
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// healthz answers whether the server and its database answer. Figures
// (the log's size) are for callers with a live token only: anyone may ask
// whether memgov is up, not how much it holds.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	size, err := s.eng.Audit().LogSize(r.Context())
	if err != nil {
		s.log.Error("healthz", "err", err)
		writeError(w, http.StatusServiceUnavailable, "UNAVAILABLE", "the database does not answer")
		return
	}
	status := "ok"
	if s.drain.Err() != nil {
		status = "draining"
	}
	out := map[string]any{"status": status}
	if tok, ok := bearer(r); ok {
		addr := remoteHost(r)
		if blocked, _ := s.failures.blocked(addr); !blocked {
			p, err := s.eng.Authenticate(r.Context(), tok)
			switch {
			case err == nil:
				noteInfo(r.Context(), p.ID)
				out["log_size"] = size
			case errors.Is(err, memgov.ErrUnauthorized):
				s.failures.failed(addr)
			}
		}
	}
	writeJSON(w, http.StatusOK, out)
}
