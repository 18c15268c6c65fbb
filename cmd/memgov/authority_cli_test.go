package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/reviews"
	"github.com/memgov/memgov/store/sqlite"
)

// The authority matrix: every command x {same tenant, other tenant} x {each
// role} x {the writer of the item (or a principal acting for it), someone
// else}, run in-process through the cobra root on one database, each cell
// on fresh fixtures. The expected outcome of every cell is derived from the
// authority table (authz.Actions) and the policy's RBAC matrix, not written
// by hand; every cell also checks that no output names what the actor may
// not see.

const (
	home    = "acme"
	foreign = "globex"
	writer  = "acme-writer" // the executor agent that writes every fixture
)

var roles = []memgov.Role{memgov.Executor, memgov.Verifier, memgov.Orchestrator, memgov.Curator, memgov.Operator}

// actor is one principal of the matrix.
type actor struct {
	id     string
	role   memgov.Role
	tenant string
	agent  string // attribute agent=: acts for this agent
}

// actors returns, for each tenant and role, someone else and the writer (or
// a principal acting for the writer).
func actors() []actor {
	var out []actor
	for _, t := range []string{home, foreign} {
		for _, r := range roles {
			out = append(out, actor{id: t + "-" + string(r), role: r, tenant: t})
			w := actor{id: t + "-" + string(r) + "-w", role: r, tenant: t, agent: writer}
			if t == home && r == memgov.Executor {
				w = actor{id: writer, role: r, tenant: t}
			}
			out = append(out, w)
		}
	}
	return out
}

func (a actor) isWriter() bool { return a.id == writer || a.agent == writer }

// inproc runs memgov commands in this process through the cobra root.
type inproc struct {
	t  *testing.T
	db string
}

func (c inproc) run(args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"--db", c.db}, args...), strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

func (c inproc) ok(args ...string) string {
	c.t.Helper()
	out, errOut, code := c.run(args...)
	if code != 0 {
		c.t.Fatalf("memgov %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// matrixDB makes the database, registers every actor and returns an engine
// on the same file for the fixtures.
func matrixDB(t *testing.T) (inproc, *engine.Engine) {
	t.Setenv("MEMGOV_KEY", "")
	t.Setenv("MEMGOV_PRINCIPAL", "")
	c := inproc{t: t, db: filepath.Join(t.TempDir(), "memgov.db")}
	c.ok("init")
	for _, a := range actors() {
		args := []string{"principal", "add", "--id", a.id, "--role", string(a.role), "--tenant", a.tenant}
		if a.agent != "" {
			args = append(args, "--attr", "agent="+a.agent)
		}
		c.ok(args...)
	}
	key, err := os.ReadFile(c.db + ".key")
	if err != nil {
		t.Fatal(err)
	}
	s, err := sqlite.Open(context.Background(), c.db, sqlite.Options{Key: bytes.TrimSpace(key)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	// The fixtures write hundreds of reviews as one agent within a minute.
	pol := policy.Default()
	pol.RateLimits.Layers.Episodic.Writes = 1 << 20
	pol.RateLimits.SessionBudget.Executor = 1 << 20
	pol.Reputation.BurstLimit = 1 << 20
	return c, engine.New(s, bytes.TrimSpace(key), engine.WithPolicy(pol))
}

// fixture is what one cell acts on: a fresh memoryRef of the writer with one
// item in a layer, and whatever else the command needs.
type fixture struct {
	ref, key, item, version, content string
	lsn                              int64
	review, proposal                 string
}

type fixtures struct {
	t   *testing.T
	eng *engine.Engine
	n   int
}

func (f *fixtures) item(layer memgov.Layer) fixture {
	f.t.Helper()
	f.n++
	fx := fixture{ref: fmt.Sprintf("%s/%s/c%d", home, writer, f.n), key: fmt.Sprintf("k%d", f.n),
		content: fmt.Sprintf("acme-private-%d marta kowalczyk", f.n)}
	c, _ := json.Marshal(map[string]string{"text": fx.content})
	r, err := f.eng.Writes().Put(context.Background(), memgov.PutRequest{MemoryRef: fx.ref, Key: fx.key, Layer: layer, Content: c, Actor: writer, Reason: "fixture"})
	if err != nil {
		f.t.Fatal(err)
	}
	fx.item, fx.version, fx.lsn = r.ItemID, r.VersionID, r.LSN
	return fx
}

// reviewed is a write of the writer that waits for a person: an executor
// writing EPISODIC memory.
func (f *fixtures) reviewed() fixture {
	f.t.Helper()
	f.n++
	fx := fixture{ref: fmt.Sprintf("%s/%s/c%d", home, writer, f.n), key: fmt.Sprintf("k%d", f.n),
		content: fmt.Sprintf("Customer %d of acme-private-%d wants invoices in German.", f.n, f.n)}
	conf := 0.9
	auth := 1.0
	req := memgov.WriteRequest{SourceAgentID: writer, MemoryRef: fx.ref, Key: fx.key, TargetLayer: memgov.Episodic,
		ObservationType: "user_stated_preference", Confidence: &conf, Content: json.RawMessage(`{"text":` + strconv.Quote(fx.content) + `}`),
		EvidenceRefs: []oplog.EvidenceRef{{SourceType: "HUMAN_INPUT", SourceURI: "chat://7", Authority: &auth}}}
	r, err := f.eng.Writes().Write(context.Background(), req)
	if err != nil {
		f.t.Fatal(err)
	}
	if r.Status != memgov.StatusDeferred || r.ReviewID == "" {
		f.t.Fatalf("fixture review: %+v", r)
	}
	fx.review = r.ReviewID
	return fx
}

func (f *fixtures) proposal() fixture {
	f.t.Helper()
	f.n++
	fx := fixture{ref: home + "/" + writer, content: fmt.Sprintf("acme-private-%d", f.n)}
	p, err := f.eng.Host().CreateProposal(context.Background(), memgov.ProposalInput{Kind: "prompt-template", Title: "t",
		Artifact: json.RawMessage(`{"template":"` + fx.content + `"}`)}, writer)
	if err != nil {
		f.t.Fatal(err)
	}
	fx.proposal = p.ID
	return fx
}

// command is one row of the matrix: how to set it up, how to call it, and
// what it asks of the authority table.
type command struct {
	name   string
	action authz.Action
	layers []memgov.Layer // the layers the action needs its op on ("": any)
	read   bool           // allowed means the content is shown
	people bool           // a decision of the console (the review service): people only
	whole  bool           // a whole-map read: every layer
	setup  func(f *fixtures, l memgov.Layer) fixture
	args   func(fx fixture, a actor) []string
}

func itemCmd(name string, act authz.Action, extra ...string) func(l memgov.Layer) command {
	return func(l memgov.Layer) command {
		return command{name: name + "/" + string(l), action: act, layers: []memgov.Layer{l}, people: name != "annotate",
			setup: func(f *fixtures, l memgov.Layer) fixture { return f.item(l) },
			args: func(fx fixture, a actor) []string {
				return append([]string{name, fx.item, "--by", a.id}, extra...)
			}}
	}
}

func commands() []command {
	var cs []command
	for _, l := range []memgov.Layer{memgov.Session, memgov.Semantic} {
		l := l
		cs = append(cs,
			command{name: "rollback/" + string(l), action: authz.ActRollback, layers: []memgov.Layer{l},
				setup: func(f *fixtures, l memgov.Layer) fixture { return f.item(l) },
				args: func(fx fixture, a actor) []string {
					return []string{"rollback", fx.version, "--by", a.id, "--reason", "matrix"}
				}},
			itemCmd("pin", authz.ActPin)(l),
			command{name: "unpin/" + string(l), action: authz.ActUnpin, layers: []memgov.Layer{l},
				setup: func(f *fixtures, l memgov.Layer) fixture {
					fx := f.item(l)
					if _, err := f.eng.Lifecycle().Pin(context.Background(), fx.item, home+"-curator", "fixture"); err != nil {
						f.t.Fatal(err)
					}
					return fx
				},
				args: func(fx fixture, a actor) []string { return []string{"unpin", fx.item, "--by", a.id} }},
			itemCmd("expire", authz.ActExpire, "--reason", "matrix")(l),
			itemCmd("annotate", authz.ActAnnotate, "--note", "matrix")(l),
			command{name: "reclassify/" + string(l), action: authz.ActReclassify, layers: []memgov.Layer{l, memgov.Episodic}, people: true,
				setup: func(f *fixtures, l memgov.Layer) fixture { return f.item(l) },
				args: func(fx fixture, a actor) []string {
					return []string{"reclassify", fx.item, "--layer", "EPISODIC", "--by", a.id, "--reason", "matrix"}
				}},
			// Reads: allowed means the content is printed.
			command{name: "get/" + string(l), action: authz.ActRead, layers: []memgov.Layer{l}, read: true,
				setup: func(f *fixtures, l memgov.Layer) fixture { return f.item(l) },
				args:  func(fx fixture, a actor) []string { return []string{"get", fx.ref, fx.key, "--as", a.id} }},
			command{name: "list/" + string(l), action: authz.ActRead, layers: []memgov.Layer{l}, read: true,
				setup: func(f *fixtures, l memgov.Layer) fixture { return f.item(l) },
				args:  func(fx fixture, a actor) []string { return []string{"list", fx.ref, "--as", a.id} }},
			command{name: "search/" + string(l), action: authz.ActRead, layers: []memgov.Layer{l}, read: true,
				setup: func(f *fixtures, l memgov.Layer) fixture { return f.item(l) },
				args: func(fx fixture, a actor) []string {
					return []string{"search", fx.ref, fx.content, "--as", a.id}
				}},
			command{name: "history/" + string(l), action: authz.ActRead, layers: []memgov.Layer{l}, read: true,
				setup: func(f *fixtures, l memgov.Layer) fixture { return f.item(l) },
				args:  func(fx fixture, a actor) []string { return []string{"history", fx.item, "--as", a.id} }},
			command{name: "at/" + string(l), action: authz.ActRead, layers: []memgov.Layer{l}, read: true,
				setup: func(f *fixtures, l memgov.Layer) fixture { return f.item(l) },
				args: func(fx fixture, a actor) []string {
					return []string{"at", fx.ref, "--lsn", strconv.FormatInt(fx.lsn, 10), "--as", a.id}
				}},
			command{name: "snapshot-export/" + string(l), action: authz.ActRead, layers: []memgov.Layer{l}, read: true, whole: true,
				setup: func(f *fixtures, l memgov.Layer) fixture { return f.item(l) },
				args:  func(fx fixture, a actor) []string { return []string{"snapshot", "export", fx.ref, "--as", a.id} }},
		)
	}
	session := func(f *fixtures, _ memgov.Layer) fixture { return f.item(memgov.Session) }
	review := func(f *fixtures, _ memgov.Layer) fixture { return f.reviewed() }
	cs = append(cs,
		command{name: "lease-acquire", action: authz.ActLease, layers: []memgov.Layer{memgov.Session}, setup: session,
			args: func(fx fixture, a actor) []string { return []string{"lease", "acquire", fx.ref, fx.key, "--by", a.id} }},
		command{name: "consolidate", action: authz.ActConsolidate, layers: []memgov.Layer{""}, setup: session,
			args: func(fx fixture, a actor) []string { return []string{"consolidate", fx.ref, "--by", a.id} }},
		command{name: "forget", action: authz.ActForget, layers: []memgov.Layer{""}, setup: session,
			args: func(fx fixture, a actor) []string {
				return []string{"forget", fx.ref, "--subject", "marta", "--by", a.id, "--reason", "matrix"}
			}},
		command{name: "erase-dry-run", action: authz.ActErase, layers: []memgov.Layer{memgov.Session}, setup: session,
			args: func(fx fixture, a actor) []string {
				return []string{"erase", "--subject", fx.content, "--by", a.id, "--dry-run"}
			}},
		command{name: "baseline-approve", action: authz.ActBaselineApprove, layers: []memgov.Layer{""}, setup: session,
			args: func(fx fixture, a actor) []string {
				return []string{"baseline", "approve", fx.ref, "--by", a.id, "--type", "persistent", "--ttl", "86400", "--policy", "alert-on-drift", "--level", "1"}
			}},
		command{name: "review-claim", action: authz.ActReviewClaim, layers: []memgov.Layer{memgov.Episodic}, setup: review,
			args: func(fx fixture, a actor) []string { return []string{"review", "claim", fx.review, "--by", a.id} }},
		command{name: "review-approve", action: authz.ActReviewDecide, layers: []memgov.Layer{memgov.Episodic}, setup: review,
			args: func(fx fixture, a actor) []string {
				return []string{"review", "approve", fx.review, "--by", a.id, "--note", "ok"}
			}},
		command{name: "review-reject", action: authz.ActReviewDecide, layers: []memgov.Layer{memgov.Episodic}, setup: review,
			args: func(fx fixture, a actor) []string {
				return []string{"review", "reject", fx.review, "--by", a.id, "--code", reviews.RejectCodes[0], "--note", "no"}
			}},
		command{name: "review-escalate", action: authz.ActReviewEscalate, layers: []memgov.Layer{memgov.Episodic}, setup: review,
			args: func(fx fixture, a actor) []string {
				return []string{"review", "escalate", fx.review, "--by", a.id, "--note", "up"}
			}},
		command{name: "review-release", action: authz.ActReviewRelease, layers: []memgov.Layer{memgov.Episodic}, setup: review,
			args: func(fx fixture, a actor) []string { return []string{"review", "release", fx.review, "--by", a.id} }},
		command{name: "workspace-create", action: authz.ActWorkspace, layers: []memgov.Layer{""}, setup: session,
			args: func(fx fixture, a actor) []string {
				return []string{"workspace", "create", fx.ref, "--agent", a.id, "--name", "w-" + fx.key}
			}},
		command{name: "proposal-apply", action: authz.ActProposalActivate, layers: []memgov.Layer{""},
			setup: func(f *fixtures, _ memgov.Layer) fixture { return f.proposal() },
			args:  func(fx fixture, a actor) []string { return []string{"proposal", "apply", fx.proposal, "--by", a.id} }},
	)
	return cs
}

var allLayers = []string{policy.Working, policy.Session, policy.Episodic, policy.Semantic, policy.Procedural}

// expect derives a cell's outcome from the authority table and the RBAC
// matrix of the default policy, as SECURITY.md states the rules.
func expect(c command, a actor, ref string) bool {
	rule, ok := authz.RuleFor(c.action)
	if !ok {
		panic("no rule for " + c.action)
	}
	pol := policy.Default()
	role := string(a.role)
	own := strings.Split(ref, "/")[1] == a.id
	if a.tenant != home {
		// CTI-1. An erasure by a curator of another tenant runs, and
		// finds nothing there.
		return c.action == authz.ActErase && a.role == memgov.Curator
	}
	if c.people && a.role != memgov.Curator && a.role != memgov.Operator {
		return false
	}
	switch rule.Who {
	case authz.People:
		if a.role != memgov.Curator && a.role != memgov.Operator {
			return false
		}
	case authz.Curators:
		if a.role != memgov.Curator {
			return false
		}
	case authz.Owner:
		if a.role == memgov.Executor && !own {
			return false
		}
	}
	for _, l := range c.layers {
		if l == "" {
			if !slices.ContainsFunc(allLayers, func(x string) bool { return pol.Allowed(role, x, rule.Op) }) {
				return false
			}
			continue
		}
		if !pol.Allowed(role, string(l), rule.Op) {
			return false
		}
		if a.role == memgov.Executor && (l == memgov.Working || l == memgov.Session) && !own {
			return false
		}
	}
	if c.whole {
		for _, l := range allLayers {
			if !pol.Allowed(role, l, policy.OpRead) {
				return false
			}
		}
	}
	if rule.NotWriter && a.isWriter() {
		return false
	}
	return true
}

func TestAuthorityMatrixCLI(t *testing.T) {
	c, eng := matrixDB(t)
	f := &fixtures{t: t, eng: eng}
	cells, allowed := 0, 0
	for _, cmd := range commands() {
		for _, a := range actors() {
			var layer memgov.Layer
			if len(cmd.layers) > 0 {
				layer = cmd.layers[0]
			}
			fx := cmd.setup(f, layer)
			args := cmd.args(fx, a)
			out, errOut, code := c.run(args...)
			cells++
			want := expect(cmd, a, fx.ref)
			all := out + errOut
			var got bool
			if cmd.read {
				got = code == 0 && strings.Contains(out, fx.content)
			} else {
				got = code == 0
			}
			if got != want {
				t.Errorf("%s by %s (%s of %s, writer %v): allowed=%v, want %v\nmemgov %s\nexit %d\n%s", cmd.name, a.id, a.role, a.tenant, a.isWriter(),
					got, want, strings.Join(args, " "), code, all)
				continue
			}
			if want {
				allowed++
			} else if !cmd.read {
				if !strings.Contains(all, "forbidden") && !strings.Contains(all, "read-only") && !strings.Contains(all, "rule ") && !strings.Contains(all, "no proposal") {
					t.Errorf("%s by %s: refused without naming a rule: %s", cmd.name, a.id, all)
				}
			}
			// No foreign data: a refusal never shows the content; an actor of
			// another tenant sees nothing of acme it did not name itself.
			if !want && strings.Contains(all, fx.content) {
				t.Errorf("%s by %s: the refusal shows the content: %s", cmd.name, a.id, all)
			}
			if a.tenant == foreign {
				given := strings.Join(args, " ")
				for _, secret := range []string{fx.content, "acme-private", fx.key, fx.item, fx.version, writer, fx.ref} {
					if secret != "" && !strings.Contains(given, secret) && strings.Contains(all, secret) {
						t.Errorf("%s by %s: the output names %q of another tenant:\n%s", cmd.name, a.id, secret, all)
					}
				}
			}
		}
	}
	t.Logf("authority matrix: %d cells, %d allowed, %d refused", cells, allowed, cells-allowed)
	if want := len(commands()) * len(actors()); cells != want || allowed == 0 || allowed == cells {
		t.Fatalf("matrix of %d cells (want %d), %d allowed", cells, want, allowed)
	}
}

// TestAuthoritySubsetRealProcesses runs a few cells of the matrix as real
// processes: the attacks the authority rules close.
func TestAuthoritySubsetRealProcesses(t *testing.T) {
	c := newCLI(t)
	c.ok("", "init")
	for _, p := range [][]string{{"abot", "executor", "acme"}, {"acur", "curator", "acme"}, {"gbot", "executor", "globex"},
		{"gcur", "curator", "globex"}, {"gop", "operator", "globex"}, {"ghost", "curator", "globex", "agent=gbot"}} {
		args := []string{"principal", "add", "--id", p[0], "--role", p[1], "--tenant", p[2]}
		if len(p) > 3 {
			args = append(args, "--attr", p[3])
		}
		c.ok("", args...)
	}
	w := c.write(`{"source_agent_id":"gbot","memory_ref":"globex/gbot","key":"plan","target_layer":"SESSION",
		"observation_type":"user_stated_preference","content":{"text":"globex secret plan alpha"},
		"evidence_refs":[{"source_type":"HUMAN_INPUT","source_uri":"chat://1","authority":1}]}`)
	if w.Status != "COMMITTED" {
		t.Fatalf("%+v", w)
	}
	for _, args := range [][]string{
		{"rollback", w.VersionID, "--by", "abot", "--reason", "x"},
		{"rollback", w.VersionID, "--by", "acur", "--reason", "x"},
		{"pin", w.ItemID, "--by", "acur"},
		{"lease", "acquire", "globex/gbot", "plan", "--by", "acur"},
		{"consolidate", "globex/gbot", "--by", "abot"},
		{"history", w.ItemID, "--as", "abot"},
		{"at", "globex/gbot", "--lsn", "100", "--as", "acur"},
		{"snapshot", "export", "globex/gbot", "--as", "acur"},
		{"get", "globex/gbot", "plan", "--as", "acur"},
	} {
		out, errOut, code := c.run("", args...)
		if code == 0 && !strings.HasPrefix(args[0], "at") {
			t.Errorf("memgov %s: allowed (%s)", strings.Join(args, " "), out)
		}
		if strings.Contains(out+errOut, "secret plan") || strings.Contains(out+errOut, "globex/gbot") && !slices.Contains(args, "globex/gbot") {
			t.Errorf("memgov %s shows globex data: %s%s", strings.Join(args, " "), out, errOut)
		}
	}
	// A globex erasure of a subject that lives in globex, dry run by an
	// acme curator: nothing found, nothing named.
	out, errOut, code := c.run("", "erase", "--subject", "secret plan alpha", "--by", "acur", "--dry-run", "--json")
	if code != 0 || !strings.Contains(out, "NOTHING_FOUND") || strings.Contains(out+errOut, w.ItemID) || strings.Contains(out+errOut, "globex") {
		t.Errorf("erase --dry-run across tenants: exit %d %s%s", code, out, errOut)
	}
	// Writers never judge their own writes: a curator acting for the agent
	// may not even claim its review.
	r := c.write(`{"source_agent_id":"gbot","memory_ref":"globex/gbot","key":"c7/lang","target_layer":"EPISODIC",
		"observation_type":"user_stated_preference","confidence":0.9,"content":{"text":"Customer 7 wants invoices in German."},
		"evidence_refs":[{"source_type":"HUMAN_INPUT","source_uri":"chat://7","authority":1}]}`)
	if r.Status != "DEFERRED" {
		t.Fatalf("%+v", r)
	}
	for _, verb := range []string{"claim", "escalate", "release"} {
		args := []string{"review", verb, r.ReviewID, "--by", "ghost"}
		if verb == "escalate" {
			args = append(args, "--note", "x")
		}
		if _, errOut, code := c.run("", args...); code == 0 || !strings.Contains(errOut, "SELF-REVIEW") {
			t.Errorf("review %s by the writer's own curator: exit %d %s", verb, code, errOut)
		}
	}
	c.ok("", "review", "claim", r.ReviewID, "--by", "gcur")
	// The reads without a reader say who reads.
	if _, errOut, _ := c.run("", "history", w.ItemID); !strings.Contains(errOut, "local owner") {
		t.Errorf("history without a reader does not say the local owner reads: %q", errOut)
	}
	// policy show prints the table.
	if out := c.ok("", "policy", "show"); !strings.Contains(out, "review.claim") || !strings.Contains(out, "SELF") && !strings.Contains(out, "NOT-WRITER") {
		t.Errorf("policy show does not print the authority table:\n%s", out)
	}
}
