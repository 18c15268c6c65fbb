package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/scope"
)

// Action is one thing a principal asks memgov to do. Every command that
// changes memory, and every read that returns content, names the action it
// performs; Permit decides it from the one table, Actions.
type Action string

// Actions of the authority table.
const (
	ActRead             Action = "read"
	ActWrite            Action = "write"
	ActAnnotate         Action = "annotate"
	ActRollback         Action = "rollback"
	ActPin              Action = "pin"
	ActUnpin            Action = "unpin"
	ActExpire           Action = "expire"
	ActReclassify       Action = "reclassify"
	ActPromote          Action = "promote"
	ActConsolidate      Action = "consolidate"
	ActDistill          Action = "distill"
	ActForget           Action = "forget"
	ActErase            Action = "erase"
	ActLease            Action = "lease"
	ActWorkspace        Action = "workspace"
	ActReviewClaim      Action = "review.claim"
	ActReviewDecide     Action = "review.decide"
	ActReviewEscalate   Action = "review.escalate"
	ActReviewRelease    Action = "review.release"
	ActDriftAck         Action = "drift.ack"
	ActBaselineApprove  Action = "baseline.approve"
	ActProposalActivate Action = "proposal.activate"
)

// Who narrows an action beyond the RBAC matrix.
type Who string

// Who values.
const (
	Anyone   Who = "any role the matrix grants"
	People   Who = "curators and operators"
	Curators Who = "curators"
	// Owner: an executor acts only on its own memoryRef ("own" memory,
	// spec §12.8.2 ABAC); orchestrators and people act on any ref of their tenant.
	Owner Who = "executors on their own memoryRef; orchestrators and people"
)

// Rule is one row of the authority table: an action is allowed when the
// principal governs the memory's tenant (CTI-1), its role holds Op on the
// memory's layer in the RBAC matrix (spec §12.8.2), it is one of Who, and, when
// NotWriter is set, it neither wrote the memory nor acts for the agent that
// did (writers never judge their own writes).
type Rule struct {
	Action    Action `json:"action"`
	Op        string `json:"op"`
	Who       Who    `json:"who"`
	NotWriter bool   `json:"not_writer"`
	Commands  string `json:"commands"`
}

// Actions is the authority table: who may do what. `memgov policy show`
// prints it; Permit decides from it.
var Actions = []Rule{
	{ActRead, policy.OpRead, Anyone, false, "get, list, search, history, at (entries); snapshot export and hash, checkpoint show/ops/prove, drift list/show, workspace show (whole maps: read on every layer); review list, events"},
	{ActWrite, policy.OpWrite, Anyone, false, "write (the pipeline's authorization gate applies the same matrix)"},
	{ActAnnotate, policy.OpAnnotate, Anyone, false, "annotate"},
	{ActRollback, policy.OpDelete, People, false, "rollback (and the TUI's roll back to a version)"},
	{ActPin, policy.OpAdmin, People, false, "pin"},
	{ActUnpin, policy.OpAdmin, People, false, "unpin"},
	{ActExpire, policy.OpDelete, Anyone, false, "expire (orchestrators soft-delete, 12.8.2; the console: people)"},
	{ActReclassify, policy.OpAdmin, Anyone, false, "reclassify (on both layers; the console: people)"},
	{ActPromote, policy.OpWrite, Owner, false, "promote (writes SEMANTIC memory)"},
	{ActConsolidate, policy.OpWrite, Owner, false, "consolidate"},
	{ActDistill, policy.OpWrite, Owner, false, "distill"},
	{ActForget, policy.OpDelete, People, false, "forget"},
	{ActErase, policy.OpHardDelete, Curators, false, "erase"},
	{ActLease, policy.OpWrite, Anyone, false, "lease acquire (a lease on a durable key also for executors and orchestrators: the write under it is gated)"},
	{ActWorkspace, policy.OpWrite, Anyone, false, "workspace create (put, remove and submit: its owner only)"},
	{ActReviewClaim, policy.OpApprove, Curators, true, "review claim (and opening a review in the TUI)"},
	{ActReviewDecide, policy.OpApprove, Curators, true, "review approve, review reject, workspace merge decisions"},
	{ActReviewEscalate, policy.OpApprove, Curators, true, "review escalate"},
	{ActReviewRelease, policy.OpApprove, Curators, true, "review release"},
	{ActDriftAck, policy.OpApprove, People, false, "drift ack"},
	{ActBaselineApprove, policy.OpApprove, People, false, "baseline approve"},
	{ActProposalActivate, policy.OpApprove, Curators, true, "proposal apply (curators, or a principal holding proposal:activate; never the owner)"},
}

// RuleFor returns the table's row for a.
func RuleFor(a Action) (Rule, bool) {
	i := slices.IndexFunc(Actions, func(r Rule) bool { return r.Action == a })
	if i < 0 {
		return Rule{}, false
	}
	return Actions[i], true
}

// Target is what an action is performed on: memory of Ref in Layer (empty
// for targets that are not one item, like a baseline: then the role must
// hold the operation on some layer), written by Writer ("" when no one's).
type Target struct {
	Ref    string
	Layer  memgov.Layer
	Writer string
}

// Permit decides whether actor may perform a on t, loading the principal.
func (e *Engine) Permit(ctx context.Context, actor string, a Action, t Target) error {
	var p memgov.Principal
	err := e.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		p, err = tx.Principal(ctx, actor)
		return err
	})
	if err != nil {
		if isNotFound(err) {
			return fmt.Errorf("%w: unknown principal %q", memgov.ErrUnauthorized, actor)
		}
		return err
	}
	return e.permit(p, a, t)
}

// permitTx is Permit inside a transaction.
func (e *Engine) permitTx(ctx context.Context, tx memgov.ReadTx, actor string, a Action, t Target) (memgov.Principal, error) {
	p, err := tx.Principal(ctx, actor)
	if err != nil {
		if isNotFound(err) {
			return p, fmt.Errorf("%w: unknown principal %q", memgov.ErrUnauthorized, actor)
		}
		return p, err
	}
	return p, e.permit(p, a, t)
}

// permit is the one decision. A refusal names the rule and speaks only of
// the actor: never of the target's tenant, agent or content, so a refusal
// does not confirm what exists in another tenant.
func (e *Engine) permit(p memgov.Principal, a Action, t Target) error {
	rule, ok := RuleFor(a)
	if !ok {
		return fmt.Errorf("%w: no rule for action %q", ErrForbidden, a)
	}
	if p.Suspended && a != ActRead {
		return fmt.Errorf("%w: rule SUSPENDED (%s): %s is suspended", ErrForbidden, a, p.ID)
	}
	r, err := scope.Parse(t.Ref)
	if err != nil {
		return fmt.Errorf("%w: malformed memoryRef", memgov.ErrInvalid)
	}
	if !p.Governs(r.Tenant) {
		return fmt.Errorf("%w: rule CTI-1 (%s): %s governs tenant %s, not another tenant's memory", ErrForbidden, a, p.ID, p.Tenant)
	}
	switch rule.Who {
	case People:
		if !p.Role.Human() {
			return fmt.Errorf("%w: rule %s: only %s may %s; %s is %s", ErrForbidden, a, People, a, p.ID, p.Role)
		}
	case Curators:
		if p.Role != memgov.Curator && !(a == ActProposalActivate && HasScope(p, ScopeProposalActivate)) {
			return fmt.Errorf("%w: rule %s: only %s may %s; %s is %s", ErrForbidden, a, Curators, a, p.ID, p.Role)
		}
	case Owner:
		if p.Role == memgov.Executor && agentOf(t.Ref) != p.ID {
			return fmt.Errorf("%w: rule %s: an agent may %s only its own memoryRef", ErrForbidden, a, a)
		}
	}
	if t.Layer == "" {
		if !slices.ContainsFunc([]string{policy.Working, policy.Session, policy.Episodic, policy.Semantic, policy.Procedural},
			func(l string) bool { return e.policy.Allowed(string(p.Role), l, rule.Op) }) {
			return fmt.Errorf("%w: rule RBAC 12.8.2 (%s): %s %s holds no %s right", ErrForbidden, a, an(string(p.Role)), p.Role, rule.Op)
		}
	} else {
		if !e.policy.Allowed(string(p.Role), string(t.Layer), rule.Op) {
			return fmt.Errorf("%w: rule RBAC 12.8.2 (%s): %s %s may not %s %s memory", ErrForbidden, a, an(string(p.Role)), p.Role, rule.Op, t.Layer)
		}
		if p.Role == memgov.Executor && (t.Layer == memgov.Working || t.Layer == memgov.Session) && agentOf(t.Ref) != p.ID {
			return fmt.Errorf("%w: rule ABAC own-session (%s): an executor may %s only its own session memory", ErrForbidden, a, rule.Op)
		}
	}
	if rule.NotWriter && t.Writer != "" && ActsFor(p, t.Writer) {
		return fmt.Errorf("%w: rule SELF-REVIEW (%s): %s wrote this memory (or acts for its writer) and may not judge it", ErrForbidden, a, p.ID)
	}
	return nil
}

// ActsFor reports whether p is the agent writer or acts for it: its "agent"
// attribute names writer. A host principal acting for an agent carries
// agent=<agent id>.
func ActsFor(p memgov.Principal, writer string) bool {
	if writer == "" {
		return false
	}
	if p.ID == writer {
		return true
	}
	for _, a := range strings.Split(p.Attributes["agent"], ",") {
		if strings.TrimSpace(a) == writer {
			return true
		}
	}
	return false
}

// ReadRef checks that principal may read the whole memory of ref at once (a
// memory map, a snapshot export, a memory checkpoint, a drift report): the
// read rule of the table on the ref, and a read right on every layer, since
// a whole map holds every layer (executors read only some, spec §12.8.2).
func (e *Engine) ReadRef(ctx context.Context, principal, ref string) error {
	var p memgov.Principal
	err := e.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		p, err = tx.Principal(ctx, principal)
		return err
	})
	if err != nil {
		if isNotFound(err) {
			return fmt.Errorf("%w: unknown principal %q", memgov.ErrUnauthorized, principal)
		}
		return err
	}
	return e.readRef(p, ref)
}

func (e *Engine) readRef(p memgov.Principal, ref string) error {
	if err := e.permit(p, ActRead, Target{Ref: ref}); err != nil {
		return err
	}
	for _, l := range []string{policy.Working, policy.Session, policy.Episodic, policy.Semantic, policy.Procedural} {
		if !e.policy.Allowed(string(p.Role), l, policy.OpRead) {
			return fmt.Errorf("%w: rule RBAC 12.8.2 (read): a whole memory map holds every layer, and %s %s may not read %s memory", ErrForbidden, an(string(p.Role)), p.Role, l)
		}
	}
	return nil
}

// an is the indefinite article of w.
func an(w string) string {
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an"
	}
	return "a"
}
