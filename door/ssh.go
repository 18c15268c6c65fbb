package door

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	"github.com/charmbracelet/wish/activeterm"
	bm "github.com/charmbracelet/wish/bubbletea"
	"github.com/muesli/termenv"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/review"
	"github.com/memgov/memgov/tui"
)

// The review console over SSH: reviewers connect with a key authorised for
// their principal (memgov principal add ... --ssh-key FILE) and work the
// same TUI as `memgov tui`, acting as that principal. Claims keep several
// reviewers off each other's items. Unknown keys are refused at the
// handshake; passwords are not accepted.

// SSHConfig configures the SSH door.
type SSHConfig struct {
	Engine      *engine.Engine
	HostKeyPath string // generated on first start (mode 0600)
	DBName      string // shown in the console's header
	Logger      *slog.Logger
	// Poll is the console's refresh interval (default 2s).
	Poll time.Duration
	// IdleTimeout closes idle sessions (default 30 minutes).
	IdleTimeout time.Duration
}

type sshPrincipalKey struct{}

// NewSSH returns the SSH server of the review console.
func NewSSH(cfg SSHConfig) (*ssh.Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 30 * time.Minute
	}
	if cfg.HostKeyPath == "" {
		return nil, errors.New("the SSH door needs a host key path")
	}
	if err := os.MkdirAll(filepath.Dir(cfg.HostKeyPath), 0o700); err != nil {
		return nil, err
	}
	eng := cfg.Engine
	auth := func(ctx ssh.Context, key ssh.PublicKey) bool {
		// The lookup gets a context of its own: the handshake's context is
		// changed (SetValue) by the SSH library while a query would watch it.
		lctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		p, err := eng.PrincipalForKey(lctx, key)
		if err != nil {
			cfg.Logger.Warn("ssh key refused", "user", ctx.User(), "remote", ctx.RemoteAddr().String(), "err", err)
			return false
		}
		ctx.SetValue(sshPrincipalKey{}, p)
		return true
	}
	console := func(s ssh.Session) *tea.Program {
		p, ok := s.Context().Value(sshPrincipalKey{}).(memgov.Principal)
		if !ok {
			fmt.Fprintln(s, "memgov: no principal for this key")
			return nil
		}
		// The principal is read again: a role changed since the handshake counts.
		cur, err := eng.Principal(s.Context(), p.ID)
		if err != nil {
			fmt.Fprintf(s, "memgov: principal %s: %v\n", p.ID, err)
			return nil
		}
		cfg.Logger.Info("ssh session", "principal", cur.ID, "role", cur.Role, "remote", s.RemoteAddr().String())
		m := tui.New(tui.Options{Service: review.New(eng, cur), DBName: cfg.DBName, Poll: cfg.Poll})
		prog := tea.NewProgram(m, tea.WithInput(s), tea.WithOutput(s), tea.WithAltScreen(), tea.WithContext(s.Context()))
		if pty, _, ok := s.Pty(); ok {
			go prog.Send(tea.WindowSizeMsg{Width: pty.Window.Width, Height: pty.Window.Height})
		}
		return prog
	}
	return wish.NewServer(
		wish.WithHostKeyPath(cfg.HostKeyPath),
		wish.WithPublicKeyAuth(auth),
		wish.WithIdleTimeout(cfg.IdleTimeout),
		wish.WithMiddleware(
			bm.MiddlewareWithProgramHandler(console, termenv.ANSI256),
			activeterm.Middleware(),
		),
	)
}

// ServeSSH serves srv on ln until ctx is done, then closes every session.
func ServeSSH(ctx context.Context, srv *ssh.Server, ln net.Listener) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, ssh.ErrServerClosed) {
		return err
	}
	return nil
}
