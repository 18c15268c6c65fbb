package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/door"
)

func (a *app) serveCommand() *cobra.Command {
	var (
		secretFile, logLevel string
		hooks                []string
		opts                 door.ServeOptions
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve MCP, the JSON API, metrics and (with --ssh) the review console",
		Long: `serve runs one long-lived process that owns the database and opens its doors:

  /mcp             MCP (streamable HTTP) for agents: add_memory, search_memories,
                   list_memories, get_memory, forget_memory, memory_status
  /v1/...          the JSON API (writes, reads, search, forget, verify, and for
                   curators and operators reviews, drift and proposals);
                   its OpenAPI document is /v1/openapi.json
  /metrics         Prometheus metrics          /healthz   health
  --ssh ADDR       the review console (the TUI) over SSH for reviewers

Every HTTP and MCP request carries Authorization: Bearer TOKEN and acts as the
token's principal (memgov token create --principal ID). SSH sessions act as the
principal their key is authorised for (memgov principal add ... --ssh-key FILE);
the host key is created beside the database on first start. Webhooks (--webhook)
announce SYNC_BLOCK reviews, drift episodes and escalations, signed with the
secret of --webhook-secret-file (Memgov-Signature: v1=HMAC-SHA256 of
"TIMESTAMP.BODY", Memgov-Timestamp: TIMESTAMP). A notification a receiver still
refuses after --webhook-attempts is kept as a dead letter: memgov webhook
dead-letters lists them.

Every request is logged to stderr, one line each (method, path, status, duration,
principal). /healthz answers anyone whether memgov is up, and its figures only to a
live token. An address whose tokens keep failing is answered 429 for a while
(--auth-fail-burst, --auth-fail-rate).

serve listens on loopback unless --listen says otherwise. On SIGINT it stops
taking requests, answers waiting SYNC_BLOCK writes DEFERRED, lets in-flight
writes finish and exits.`,
		Example: `  memgov serve
  memgov serve --listen 127.0.0.1:7077 --ssh 127.0.0.1:2222
  memgov serve --webhook https://ops.example/hooks/memgov --webhook-secret-file hook.secret`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var level slog.Level
			if err := level.UnmarshalText([]byte(logLevel)); err != nil {
				return usagef("--log-level: %v", err)
			}
			logger := slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: level}))
			var secret []byte
			if len(hooks) > 0 {
				if secretFile == "" {
					return usagef("--webhook needs --webhook-secret-file")
				}
				b, err := os.ReadFile(secretFile)
				if err != nil {
					return err
				}
				if secret = []byte(strings.TrimSpace(string(b))); len(secret) < 16 {
					return usagef("the webhook secret must be at least 16 characters")
				}
			}
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			opts.HTTP.Engine, opts.HTTP.Logger, opts.HTTP.Version = eng, logger, buildVersion()
			opts.SSHHostKeyPath, opts.DBName = sideBase(a.dbPath)+".ssh_host_ed25519", dbName(a.dbPath)
			opts.WebhookCursorFile = sideBase(a.dbPath) + ".webhooks"
			for _, u := range hooks {
				opts.Webhooks = append(opts.Webhooks, door.Webhook{URL: u, Secret: secret})
			}
			doors, err := door.Open(cmd.Context(), opts)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "memgov serve: http://%s (MCP at /mcp, API at /v1, metrics at /metrics)\n", doors.HTTPAddr)
			if doors.SSHAddr != nil {
				fmt.Fprintf(a.stdout, "memgov serve: ssh %s (the review console)\n", doors.SSHAddr)
			}
			if doors.Webhooks > 0 {
				fmt.Fprintf(a.stdout, "memgov serve: webhooks to %d receivers (failed deliveries: memgov webhook dead-letters)\n", doors.Webhooks)
			}
			return doors.Run(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Listen, "listen", "127.0.0.1:7077", "HTTP address (MCP, JSON API, metrics)")
	f.StringVar(&opts.SSHListen, "ssh", "", "also serve the review console over SSH at this address")
	f.StringArrayVar(&hooks, "webhook", nil, "POST signed notifications to this URL (repeatable)")
	f.StringVar(&secretFile, "webhook-secret-file", "", "file holding the webhook signing secret")
	f.IntVar(&opts.WebhookAttempts, "webhook-attempts", 6, "deliveries tried per notification before it is kept as a dead letter")
	f.DurationVar(&opts.WebhookBackoff, "webhook-backoff", time.Second, "wait before the first retry of a delivery, doubled each time")
	f.Float64Var(&opts.HTTP.FailRate, "auth-fail-rate", 1, "requests per second allowed per address once its tokens failed")
	f.IntVar(&opts.HTTP.FailBurst, "auth-fail-burst", 20, "failed authentications allowed per address at once")
	f.Float64Var(&opts.HTTP.Rate, "rate", 200, "requests per second allowed per token (average)")
	f.IntVar(&opts.HTTP.Burst, "burst", 400, "requests allowed per token at once")
	f.DurationVar(&opts.HTTP.RequestTimeout, "timeout", 30*time.Second, "time-out of one request")
	f.DurationVar(&opts.HTTP.MaxWait, "max-wait", 25*time.Second, "longest a SYNC_BLOCK write waits for review before it is answered DEFERRED")
	f.Int64Var(&opts.HTTP.MaxBodyBytes, "max-body", memgov.MaxRequestBytes+64<<10, "largest request body in bytes")
	f.DurationVar(&opts.Grace, "grace", 20*time.Second, "how long shutdown waits for in-flight requests")
	f.StringVar(&logLevel, "log-level", "info", "debug, info, warn or error (logs go to stderr)")
	return cmd
}

func (a *app) mcpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve MCP over stdio for a local agent host",
		Long: `mcp serves memgov's MCP tools (add_memory, search_memories, list_memories,
get_memory, forget_memory, memory_status) over stdin and stdout, for agent hosts
that start their MCP servers as processes (Claude Code, Cursor and the like).

It acts as the principal of the bearer token in MEMGOV_TOKEN and refuses to start
without a valid one (memgov token create --principal ID): exit 2 when MEMGOV_TOKEN
is not set, exit 6 when the token is unknown, revoked or expired. It lists only the
tools the principal can use (forget_memory only for principals the policy lets
delete). When its input ends it answers every request it read, then exits.
Register it in a host's MCP configuration, for example:

  {"mcpServers": {"memgov": {"command": "memgov", "args": ["mcp"],
    "env": {"MEMGOV_DB": "/path/memgov.db", "MEMGOV_TOKEN": "mgv_..."}}}}`,
		Example: `  MEMGOV_TOKEN=mgv_... memgov mcp`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			token := strings.TrimSpace(os.Getenv("MEMGOV_TOKEN"))
			if token == "" {
				return usagef("MEMGOV_TOKEN is not set: memgov mcp acts as the principal of a bearer token (memgov token create --principal ID)")
			}
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			p, err := eng.Authenticate(cmd.Context(), token)
			if err != nil {
				code := exitError
				if errors.Is(err, memgov.ErrUnauthorized) {
					code = exitAuth
				}
				return &exitCodeError{code: code, err: fmt.Errorf("MEMGOV_TOKEN: %w (issue one with memgov token create --principal ID)", err)}
			}
			fmt.Fprintf(a.stderr, "memgov mcp: serving MCP on stdio as %s (%s of %s)\n", p.ID, p.Role, p.Tenant)
			return door.ServeStdio(cmd.Context(), door.Config{Engine: eng, Version: buildVersion()}, token, p, a.stdin, a.rawOut())
		},
	}
}

// parseTTL reads a duration with an optional d (days) suffix: 90d, 12h, 30m.
func parseTTL(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(d)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("bad ttl %q", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("bad ttl %q: use a duration like 90d, 12h or 30m", s)
	}
	return d, nil
}

func (a *app) tokenCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Issue, list and revoke the bearer tokens of memgov serve and memgov mcp",
		Example: `  memgov token create --principal support-bot --ttl 90d --json
  memgov token list
  memgov token revoke 01936f...`,
	}
	var (
		principal, ttl, by, reason string
		asJSON                     bool
	)
	create := &cobra.Command{
		Use:   "create --principal ID",
		Short: "Issue a bearer token to a principal (shown once)",
		Long: `create issues a bearer token to a registered principal. The token is printed once
and only its SHA-256 is kept; the TOKEN_CREATE log entry names who issued it and why.
Requests carrying it act as the principal, with the principal's role and tenant.`,
		Example: `  memgov token create --principal support-bot --ttl 90d --json`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := parseTTL(ttl)
			if err != nil {
				return usagef("--ttl: %v", err)
			}
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if by == "" {
				by = osUserName()
			}
			secret, t, err := eng.CreateToken(cmd.Context(), principal, d, by, reason)
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(map[string]any{"token": secret, "principal": t.Principal, "id": t.ID, "expires_at": t.ExpiresAt})
			}
			fmt.Fprintf(a.stdout, "token %s for %s", t.ID, t.Principal)
			if t.ExpiresAt != nil {
				fmt.Fprintf(a.stdout, ", expires %s", t.ExpiresAt.Format(time.RFC3339))
			}
			fmt.Fprintf(a.stdout, "\n%s\nIt is shown once: store it now (memgov keeps only its hash).\n", secret)
			return nil
		},
	}
	create.Flags().StringVar(&principal, "principal", "", "the principal the token acts as (required)")
	create.Flags().StringVar(&ttl, "ttl", "", "lifetime, like 90d or 12h (default: until revoked)")
	create.Flags().StringVar(&by, "by", "", "who issues it (default: your OS user name)")
	create.Flags().StringVar(&reason, "reason", "", "why, for the log")
	create.Flags().BoolVar(&asJSON, "json", false, "print JSON {token, principal, id, expires_at}")
	create.MarkFlagRequired("principal")

	var listJSON bool
	list := &cobra.Command{
		Use:     "list",
		Short:   "List issued tokens (never the tokens themselves)",
		Example: "  memgov token list --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			ts, err := eng.Tokens(cmd.Context())
			if err != nil {
				return err
			}
			if listJSON {
				return a.printJSON(ts)
			}
			now := eng.Now()
			t := a.table("ID", "PRINCIPAL", "CREATED", "BY", "EXPIRES", "STATE")
			for _, tk := range ts {
				exp, state := "never", "live"
				if tk.ExpiresAt != nil {
					exp = stamp(*tk.ExpiresAt)
				}
				switch {
				case tk.RevokedAt != nil:
					state = "revoked by " + tk.RevokedBy
				case !tk.Live(now):
					state = "expired"
				}
				t.row(tk.ID, tk.Principal, stamp(tk.CreatedAt), tk.CreatedBy, exp, state)
			}
			t.flush()
			return nil
		},
	}
	list.Flags().BoolVar(&listJSON, "json", false, "print JSON")

	var rby, rreason string
	var rJSON bool
	revoke := &cobra.Command{
		Use:     "revoke ID",
		Short:   "Revoke a token at once",
		Example: `  memgov token revoke 01936f... --reason "laptop lost"`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if rby == "" {
				rby = osUserName()
			}
			t, err := eng.RevokeToken(cmd.Context(), args[0], rby, rreason)
			if err != nil {
				return err
			}
			if rJSON {
				return a.printJSON(t)
			}
			fmt.Fprintf(a.stdout, "revoked token %s of %s\n", t.ID, t.Principal)
			return nil
		},
	}
	revoke.Flags().BoolVar(&rJSON, "json", false, "print the revoked token's record as JSON (never the token)")
	revoke.Flags().StringVar(&rby, "by", "", "who revokes it (default: your OS user name)")
	revoke.Flags().StringVar(&rreason, "reason", "", "why, for the log")
	cmd.AddCommand(create, list, revoke)
	return cmd
}

func (a *app) webhookCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "webhook",
		Short: "See the webhook notifications memgov serve could not deliver",
		Example: `  memgov webhook dead-letters
  memgov webhook dead-letters --json`,
	}
	var (
		asJSON bool
		q      memgov.DeadLetterQuery
	)
	dead := &cobra.Command{
		Use:   "dead-letters",
		Short: "List webhook notifications a receiver refused after every attempt",
		Long: `dead-letters lists the notifications (SYNC_BLOCK reviews, escalations, drift
episodes) that memgov serve --webhook could not deliver: the receiver failed every
attempt (--webhook-attempts) or refused it for good (a 4xx answer). Each names the
receiver's URL, the event, the attempts made, the last error and when it was given
up; --json adds the notification as it was to be sent (identifiers only, never
memory content), so it can be delivered by hand.`,
		Example: `  memgov webhook dead-letters
  memgov webhook dead-letters --type review.created --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if q.Limit < 0 {
				return usagef("--limit must be 0 (up to 1000) or more")
			}
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			ds, err := eng.DeadLetters(cmd.Context(), q)
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(ds)
			}
			if len(ds) == 0 {
				fmt.Fprintln(a.stdout, "no dead letters: every notification was delivered")
				return nil
			}
			t := a.table("ID", "WHEN", "EVENT", "TYPE", "URL", "ATTEMPTS", "LAST ERROR")
			for _, d := range ds {
				t.row(strconv.FormatInt(d.ID, 10), d.At.UTC().Format(time.RFC3339), strconv.FormatInt(d.EventID, 10), d.EventType,
					clip(d.URL, 48), strconv.Itoa(d.Attempts), clip(d.Error, 60))
			}
			t.flush()
			return nil
		},
	}
	dead.Flags().BoolVar(&asJSON, "json", false, "print JSON [{id, event_id, event_type, url, attempts, error, body, at}]")
	dead.Flags().StringVar(&q.EventType, "type", "", "only notifications of this event type (review.created, review.escalated, MEMORY_DRIFT_DETECTED)")
	dead.Flags().Int64Var(&q.AfterID, "after", 0, "only dead letters with an id greater than this (paging)")
	dead.Flags().IntVar(&q.Limit, "limit", 0, "at most this many (0: 1000)")
	cmd.AddCommand(dead)
	return cmd
}
