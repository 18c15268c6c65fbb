// Package pgtest gives tests a real PostgreSQL server: a throwaway cluster
// (initdb into a temporary directory, pg_ctl start on a free port, trust
// authentication on 127.0.0.1 only) or the server MEMGOV_TEST_PG_URL names
// (a URL of any database there, as a role that may create databases: each
// test gets a database of its own, dropped when it ends).
// Tests call Start once per test binary (from TestMain) and NewDatabase for
// each fresh database.
//
// With no PostgreSQL binaries and no MEMGOV_TEST_PG_URL the tests skip, unless
// MEMGOV_TEST_PG_REQUIRED=1 (CI sets it), which makes that a failure.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrNoServer is returned by Start when there is no PostgreSQL to test on.
var ErrNoServer = errors.New("no PostgreSQL: no initdb and pg_ctl found (install postgresql) and MEMGOV_TEST_PG_URL is not set")

// Required reports whether a missing PostgreSQL must fail the tests.
func Required() bool { return os.Getenv("MEMGOV_TEST_PG_REQUIRED") == "1" }

// Server is a PostgreSQL server tests create databases on.
type Server struct {
	admin string // URL of a database to run CREATE DATABASE from
	stop  func()
	n     atomic.Int64
	mu    sync.Mutex
}

// Start starts a throwaway cluster, or connects to MEMGOV_TEST_PG_URL.
func Start() (*Server, error) {
	if u := os.Getenv("MEMGOV_TEST_PG_URL"); u != "" {
		s := &Server{admin: u, stop: func() {}}
		return s, s.ping()
	}
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "memgov-pg-*")
	if err != nil {
		return nil, err
	}
	run := func(args ...string) *exec.Cmd { return exec.Command(args[0], args[1:]...) }
	owner := ""
	if os.Geteuid() == 0 {
		// PostgreSQL refuses to run as root: run it as the postgres user,
		// in a directory that user owns.
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("running as root and there is no postgres user to run PostgreSQL as: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		owner = "postgres"
		run = func(args ...string) *exec.Cmd {
			return exec.Command("runuser", append([]string{"-u", "postgres", "--"}, args...)...)
		}
	} else if u, err := user.Current(); err == nil {
		owner = u.Username
	}
	data := filepath.Join(dir, "data")
	if out, err := run(filepath.Join(bin, "initdb"), "-D", data, "-U", owner, "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	port, err := freePort()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=500", port, dir)
	logf := filepath.Join(dir, "server.log")
	if out, err := run(filepath.Join(bin, "pg_ctl"), "-D", data, "-l", logf, "-o", opts, "-w", "-t", "60", "start").CombinedOutput(); err != nil {
		log, _ := os.ReadFile(logf)
		os.RemoveAll(dir)
		return nil, fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	s := &Server{
		admin: fmt.Sprintf("postgres://%s@127.0.0.1:%d/postgres?sslmode=disable", url.PathEscape(owner), port),
		stop: func() {
			run(filepath.Join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop").Run()
			os.RemoveAll(dir)
		},
	}
	if err := s.ping(); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// Stop stops a cluster Start started and removes its files.
func (s *Server) Stop() {
	if s != nil && s.stop != nil {
		s.stop()
	}
}

func (s *Server) ping() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, s.admin)
	if err != nil {
		return fmt.Errorf("connect to the test server: %w", err)
	}
	return c.Close(ctx)
}

// NewDatabase creates an empty database (from template when not "") and
// returns its URL.
func (s *Server) NewDatabase(template string) (string, error) {
	name := fmt.Sprintf("memgov_t%d_%d", os.Getpid(), s.n.Add(1))
	return s.url(name), s.create(name, template)
}

// NewTemplate creates a database named name and returns its URL: fill it,
// then pass name to NewDatabase to copy it.
func (s *Server) NewTemplate(name string) (string, error) {
	name = fmt.Sprintf("memgov_%s_%d", name, os.Getpid())
	return s.url(name), s.create(name, "")
}

// TemplateName is the database name of a URL NewTemplate returned.
func TemplateName(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(p.Path, "/")
}

func (s *Server) create(name, template string) error {
	// CREATE DATABASE ... TEMPLATE needs the template to have no other
	// session: one at a time.
	s.mu.Lock()
	defer s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, s.admin)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	stmt := `CREATE DATABASE ` + pgx.Identifier{name}.Sanitize()
	if template != "" {
		stmt += ` TEMPLATE ` + pgx.Identifier{template}.Sanitize()
	}
	_, err = c.Exec(ctx, stmt)
	return err
}

// url is the URL of database name. Its pool closes idle connections after a
// second, so that the stores a long test leaves open until it ends do not
// hold the server's connections.
func (s *Server) url(name string) string {
	u, _ := url.Parse(s.admin)
	u.Path = "/" + name
	q := u.Query()
	q.Set("pool_max_conn_idle_time", "1s")
	q.Set("pool_health_check_period", "1s")
	u.RawQuery = q.Encode()
	return u.String()
}

// binDir finds the directory of initdb and pg_ctl: on PATH, else the newest
// of Debian's /usr/lib/postgresql/*/bin.
func binDir() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := exec.LookPath("pg_ctl"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", ErrNoServer
}

func version(dir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return v
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// DropDatabase drops a database NewDatabase created, closing its sessions.
func (s *Server) DropDatabase(u string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, s.admin)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	_, err = c.Exec(ctx, `DROP DATABASE IF EXISTS `+pgx.Identifier{TemplateName(u)}.Sanitize()+` WITH (FORCE)`)
	return err
}
