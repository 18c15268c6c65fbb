package door

import (
	"context"
	"errors"
	"io"
	"net"
	"time"

	"github.com/charmbracelet/ssh"
	"golang.org/x/sync/errgroup"

	"github.com/memgov/memgov"
)

// ServeOptions configures the doors of one `memgov serve` process: the HTTP
// door (JSON API, MCP, metrics, health) always, the review console over SSH
// when SSHListen is set, and the webhook dispatcher when Webhooks has
// receivers. Zero values take the defaults named.
type ServeOptions struct {
	// HTTP configures the HTTP door; its Engine, Logger and Version are
	// also those of the SSH door and the dispatcher.
	HTTP Config
	// Listen is the HTTP address (default 127.0.0.1:7077; port 0 picks one).
	Listen string
	// Grace bounds how long shutdown waits for in-flight requests (default 20s).
	Grace time.Duration

	// SSHListen is the SSH address of the review console; empty: no SSH door.
	SSHListen string
	// SSHHostKeyPath is the console's host key, created on first start.
	SSHHostKeyPath string
	// DBName is shown in the console's header.
	DBName string

	// Webhooks are the receivers of signed notifications; none: no dispatcher.
	Webhooks []Webhook
	// WebhookCursorFile keeps the last event handled across restarts.
	WebhookCursorFile string
	// WebhookAttempts is the deliveries tried per notification before it is
	// kept as a dead letter (default 6).
	WebhookAttempts int
	// WebhookBackoff is the wait before a delivery's first retry, doubled
	// each time (default 1s).
	WebhookBackoff time.Duration
	// WebhookInterval is how often the outbox is read (default 2s).
	WebhookInterval time.Duration
}

// Doors are the doors of one `memgov serve`, bound to their addresses and
// ready: Open binds them, Run serves them until its context is done.
type Doors struct {
	// HTTPAddr is the address the HTTP door listens on.
	HTTPAddr net.Addr
	// SSHAddr is the address of the review console; nil without one.
	SSHAddr net.Addr
	// Webhooks is the number of webhook receivers (0: no dispatcher).
	Webhooks int

	opts   ServeOptions
	srv    *Server
	ln     net.Listener
	sshSrv *ssh.Server
	sln    net.Listener
	disp   *Dispatcher
}

// Open binds every door of o: the HTTP listener, the SSH listener and host
// key (when o.SSHListen is set) and the dispatcher's starting point in the
// outbox (when o.Webhooks has receivers), so that every event after Open
// returns is delivered. Nothing is served until Run. On error nothing stays
// bound.
func Open(ctx context.Context, o ServeOptions) (*Doors, error) {
	if o.HTTP.Engine == nil {
		return nil, errors.New("door: ServeOptions.HTTP.Engine is nil")
	}
	if o.Listen == "" {
		o.Listen = "127.0.0.1:7077"
	}
	if o.Grace <= 0 {
		o.Grace = 20 * time.Second
	}
	if o.WebhookInterval <= 0 {
		o.WebhookInterval = 2 * time.Second
	}
	d := &Doors{opts: o, srv: New(o.HTTP)}
	cfg := d.srv.cfg // with its defaults
	ln, err := net.Listen("tcp", o.Listen)
	if err != nil {
		return nil, err
	}
	d.ln, d.HTTPAddr = ln, ln.Addr()
	if o.SSHListen != "" {
		if d.sshSrv, err = NewSSH(SSHConfig{Engine: cfg.Engine, HostKeyPath: o.SSHHostKeyPath, DBName: o.DBName, Logger: cfg.Logger}); err != nil {
			d.Close()
			return nil, err
		}
		if d.sln, err = net.Listen("tcp", o.SSHListen); err != nil {
			d.Close()
			return nil, err
		}
		d.SSHAddr = d.sln.Addr()
	}
	if len(o.Webhooks) > 0 {
		d.disp = &Dispatcher{Engine: cfg.Engine, Logger: cfg.Logger, Hooks: o.Webhooks, CursorFile: o.WebhookCursorFile,
			Attempts: o.WebhookAttempts, Backoff: o.WebhookBackoff, Version: cfg.Version}
		if err := d.disp.Start(ctx); err != nil {
			d.Close()
			return nil, err
		}
		d.Webhooks = len(o.Webhooks)
	}
	return d, nil
}

// Server returns the HTTP door's server (its handler and metrics registry).
func (d *Doors) Server() *Server { return d.srv }

// Close closes the listeners of doors that were opened and not run.
func (d *Doors) Close() error {
	var errs []error
	if d.ln != nil {
		errs = append(errs, d.ln.Close())
	}
	if d.sln != nil {
		errs = append(errs, d.sln.Close())
	}
	return errors.Join(errs...)
}

// Run serves every door until ctx is done, then shuts them down gracefully:
// waiting SYNC_BLOCK writes are answered DEFERRED, in-flight requests finish
// (up to the grace period), SSH sessions close, the dispatcher stops. It
// returns nil after a shutdown asked for by ctx, or the first door's error.
func (d *Doors) Run(ctx context.Context) error {
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return d.srv.Serve(gctx, d.ln, d.opts.Grace) })
	if d.sshSrv != nil {
		g.Go(func() error { return ServeSSH(gctx, d.sshSrv, d.sln) })
	}
	if d.disp != nil {
		g.Go(func() error { return d.disp.Run(gctx, d.opts.WebhookInterval) })
	}
	err := g.Wait()
	if err != nil && ctx.Err() != nil && errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// StdioLinger bounds how long `memgov mcp` waits, once its input ended, for
// the answers to the requests it read.
const StdioLinger = 35 * time.Second

// ServeStdio serves MCP over r and w (stdin and stdout for `memgov mcp`) as
// principal p, the principal of token, until the input ends or ctx is done;
// every tool call authenticates token again, so a token revoked meanwhile
// stops working. It returns nil when ctx ended the session.
func ServeStdio(ctx context.Context, cfg Config, token string, p memgov.Principal, r io.Reader, w io.Writer) error {
	if f, done, ok := pollable(r, "stdin"); ok {
		defer done()
		r = f
	}
	if f, done, ok := pollable(w, "stdout"); ok {
		defer done()
		w = f
	}
	err := New(cfg).StdioServer(token, p).Run(ctx, StdioTransport(r, w, StdioLinger))
	if err != nil && ctx.Err() != nil {
		return nil
	}
	return err
}
