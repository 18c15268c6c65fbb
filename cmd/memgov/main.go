// Command memgov governs what AI agents remember: a gated write pipeline, an
// append-only tamper-evident log, baselines and drift, and a review TUI, on one
// embedded SQLite database.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
)

// Exit codes are a contract with scripts and agent hosts.
const (
	exitOK       = 0
	exitError    = 1
	exitUsage    = 2
	exitRejected = 3
	exitDeferred = 4
	exitDenied   = 5
	// exitAuth: the credential memgov was given (MEMGOV_TOKEN for
	// memgov mcp) is missing from the store, revoked or expired.
	exitAuth = 6
)

// exitCodeError carries a specific exit code with an already-printed outcome.
type exitCodeError struct {
	code int
	err  error
}

func (e *exitCodeError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}
func (e *exitCodeError) Unwrap() error { return e.err }

// usageError marks a mistake in how a command was called.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// isCobraUsage recognises the usage errors cobra itself returns.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "required flag", "invalid argument", "flag needs an argument", "if any flags in the group"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

func usagef(format string, args ...any) error { return &usageError{fmt.Errorf(format, args...)} }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes memgov with args and returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{stdin: stdin, stdout: saneWriter{stdout}, stderr: saneWriter{stderr}}
	defer a.close()
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	var ce *exitCodeError
	if errors.As(err, &ce) {
		if ce.err != nil {
			fmt.Fprintf(stderr, "memgov: %v%s\n", ce.err, hint(cmd, ce.err))
		}
		return ce.code
	}
	fmt.Fprintf(stderr, "memgov: %v%s\n", err, hint(cmd, err))
	var ue *usageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		return exitUsage
	}
	return exitError
}
