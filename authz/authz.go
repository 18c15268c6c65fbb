// Package authz is memgov's authority: the one table of who may do what
// (Actions), the decision made from it (Checker.Permit), and every fact about
// a principal's role or tenant that any rule needs (Human, Governs, ...). No
// other package compares roles or tenants; services receive a *Checker and
// ask it, and the review service asks it which actions to offer a person.
package authz

import (
	"context"
	"errors"
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

// Matrix is the RBAC matrix of spec §12.8.2: whether a role holds op on a
// layer. policy.Policy is one.
type Matrix interface {
	Allowed(role, layer, op string) bool
}

// Policy is what the checker reads of the policy (policy.Policy is one):
// the RBAC matrix and the visibility order of classifications.
type Policy interface {
	Matrix
	// Cleared reports whether clearance covers classification.
	Cleared(clearance, classification string) bool
	// HighestClearance is the clearance of a person without one of their own.
	HighestClearance() string
}

// Checker decides from the table and the policy's RBAC matrix.
type Checker struct {
	m   Matrix
	pol Policy
}

// New returns the checker of the policy p.
func New(p Policy) *Checker { return &Checker{m: p, pol: p} }

// allowed reports whether p's role holds op on layer.
func (c *Checker) allowed(p memgov.Principal, layer, op string) bool {
	return c.m.Allowed(string(p.Role), layer, op)
}

// layers are the layers a role may hold rights on, in the matrix's order.
var layers = []string{policy.Working, policy.Session, policy.Episodic, policy.Semantic, policy.Procedural}

// Permit is the one decision: whether p may perform a on t. A refusal names
// the rule and speaks only of the actor: never of the target's tenant, agent
// or content, so a refusal does not confirm what exists in another tenant.
func (c *Checker) Permit(p memgov.Principal, a Action, t Target) error {
	rule, ok := RuleFor(a)
	if !ok {
		return fmt.Errorf("%w: no rule for action %q", memgov.ErrForbidden, a)
	}
	if p.Suspended && a != ActRead {
		return fmt.Errorf("%w: rule SUSPENDED (%s): %s is suspended", memgov.ErrForbidden, a, p.ID)
	}
	r, err := scope.Parse(t.Ref)
	if err != nil {
		return fmt.Errorf("%w: malformed memoryRef", memgov.ErrInvalid)
	}
	if !Governs(p, r.Tenant) {
		return fmt.Errorf("%w: rule CTI-1 (%s): %s governs tenant %s, not another tenant's memory", memgov.ErrForbidden, a, p.ID, p.Tenant)
	}
	if err := whoMay(p, rule, t.Ref); err != nil {
		return err
	}
	if t.Layer == "" {
		if !slices.ContainsFunc(layers, func(l string) bool { return c.allowed(p, l, rule.Op) }) {
			return fmt.Errorf("%w: rule RBAC 12.8.2 (%s): %s %s holds no %s right", memgov.ErrForbidden, a, an(string(p.Role)), p.Role, rule.Op)
		}
	} else {
		if !c.allowed(p, string(t.Layer), rule.Op) {
			return fmt.Errorf("%w: rule RBAC 12.8.2 (%s): %s %s may not %s %s memory", memgov.ErrForbidden, a, an(string(p.Role)), p.Role, rule.Op, t.Layer)
		}
		if OutsideOwnSession(p, t.Layer, agentOf(t.Ref)) {
			return fmt.Errorf("%w: rule ABAC own-session (%s): an executor may %s only its own session memory", memgov.ErrForbidden, a, rule.Op)
		}
	}
	if rule.NotWriter && t.Writer != "" && ActsFor(p, t.Writer) {
		return fmt.Errorf("%w: rule SELF-REVIEW (%s): %s wrote this memory (or acts for its writer) and may not judge it", memgov.ErrForbidden, a, p.ID)
	}
	return nil
}

// whoMay applies the Who of rule to p acting on ref.
func whoMay(p memgov.Principal, rule Rule, ref string) error {
	a := rule.Action
	switch rule.Who {
	case People:
		if !Human(p) {
			return fmt.Errorf("%w: rule %s: only %s may %s; %s is %s", memgov.ErrForbidden, a, People, a, p.ID, p.Role)
		}
	case Curators:
		if p.Role != memgov.Curator && !(a == ActProposalActivate && HasScope(p, ScopeProposalActivate)) {
			return fmt.Errorf("%w: rule %s: only %s may %s; %s is %s", memgov.ErrForbidden, a, Curators, a, p.ID, p.Role)
		}
	case Owner:
		if p.Role == memgov.Executor && agentOf(ref) != p.ID {
			return fmt.Errorf("%w: rule %s: an agent may %s only its own memoryRef", memgov.ErrForbidden, a, a)
		}
	}
	return nil
}

// WhoMay applies only the Who of a's rule: for actions on no one memoryRef
// (an erasure runs over the whole database).
func WhoMay(p memgov.Principal, a Action) error {
	rule, ok := RuleFor(a)
	if !ok {
		return fmt.Errorf("%w: no rule for action %q", memgov.ErrForbidden, a)
	}
	return whoMay(p, rule, "")
}

// Offered returns nil when p may perform a on some memory of its tenant (a
// registered principal, not suspended, of a role the rule's Who names and
// the matrix grants the rule's operation on some layer), and otherwise why
// not. The review service offers a person only the actions this allows; the
// decision on one target is still Permit's.
func (c *Checker) Offered(p memgov.Principal, a Action) error {
	rule, ok := RuleFor(a)
	if !ok {
		return fmt.Errorf("%w: no rule for action %q", memgov.ErrForbidden, a)
	}
	if !Known(p) {
		return fmt.Errorf("%w: %s is not a registered principal", memgov.ErrForbidden, p.ID)
	}
	if p.Suspended && a != ActRead {
		return fmt.Errorf("%w: rule SUSPENDED (%s): %s is suspended", memgov.ErrForbidden, a, p.ID)
	}
	if rule.Who == Owner {
		// an executor acts on its own memoryRef: some memory is its own
	} else if err := whoMay(p, rule, ""); err != nil {
		return err
	}
	if !slices.ContainsFunc(layers, func(l string) bool { return c.allowed(p, l, rule.Op) }) {
		return fmt.Errorf("%w: rule RBAC 12.8.2 (%s): %s %s holds no %s right", memgov.ErrForbidden, a, an(string(p.Role)), p.Role, rule.Op)
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

// ReadWhole checks that p may read the whole memory of ref at once (a
// memory map, a snapshot export, a memory checkpoint, a drift report): the
// read rule of the table on the ref, and a read right on every layer, since
// a whole map holds every layer (executors read only some, spec §12.8.2).
func (c *Checker) ReadWhole(p memgov.Principal, ref string) error {
	if err := c.Permit(p, ActRead, Target{Ref: ref}); err != nil {
		return err
	}
	for _, l := range layers {
		if !c.allowed(p, l, policy.OpRead) {
			return fmt.Errorf("%w: rule RBAC 12.8.2 (read): a whole memory map holds every layer, and %s %s may not read %s memory", memgov.ErrForbidden, an(string(p.Role)), p.Role, l)
		}
	}
	return nil
}

// Authorized is the matrix's cell for one entry (spec §12.8.5's
// authorized(a, m, op)): p governs ref's tenant, its role holds op on layer,
// and an executor touches only its own session memory.
func (c *Checker) Authorized(p memgov.Principal, ref string, layer memgov.Layer, op string) error {
	r, err := scope.Parse(ref)
	if err != nil {
		return fmt.Errorf("%w: malformed memoryRef", memgov.ErrInvalid)
	}
	if !Governs(p, r.Tenant) {
		return fmt.Errorf("%w: %s belongs to tenant %s", memgov.ErrForbidden, p.ID, p.Tenant)
	}
	if !c.allowed(p, string(layer), op) {
		return fmt.Errorf("%w: a %s may not %s %s memory (12.8.2)", memgov.ErrForbidden, p.Role, op, layer)
	}
	if OutsideOwnSession(p, layer, agentOf(ref)) {
		return fmt.Errorf("%w: an executor may %s only its own session memory", memgov.ErrForbidden, op)
	}
	return nil
}

// Lease decides a lease on ref's key in layer: the table's lease rule for
// another tenant or a suspended principal; otherwise the matrix's write
// right, except that an executor, orchestrator or curator may lease a
// durable key it may not write (the write under the lease is gated and may
// go to a person).
func (c *Checker) Lease(p memgov.Principal, ref string, layer memgov.Layer) error {
	if !Governs(p, tenantOf(ref)) || p.Suspended {
		return c.Permit(p, ActLease, Target{Ref: ref, Layer: layer}) // CTI-1: the table's refusal
	}
	if err := c.Authorized(p, ref, layer, policy.OpWrite); err != nil && !(p.Role != memgov.Verifier && p.Role != memgov.Operator && layer.Durable()) {
		return err
	}
	return nil
}

// Deletes reports whether p may delete memory of layer by the matrix, or is
// a person (curators and operators forget by subject).
func (c *Checker) Deletes(p memgov.Principal, layer memgov.Layer) bool {
	return Human(p) || c.allowed(p, string(layer), policy.OpDelete)
}

// DeletesSomewhere reports whether p may ever forget: a person, or a role
// the matrix lets delete entries of some layer.
func (c *Checker) DeletesSomewhere(p memgov.Principal) bool {
	return Human(p) || slices.ContainsFunc(layers, func(l string) bool { return c.allowed(p, l, policy.OpDelete) })
}

// an is the indefinite article of w.
func an(w string) string {
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an"
	}
	return "a"
}

func agentOf(ref string) string {
	parts := strings.Split(ref, "/")
	if len(parts) < 2 {
		return ""
	}
	return parts[1]
}

func tenantOf(ref string) string {
	t, _, _ := strings.Cut(ref, "/")
	return t
}

// Require refuses an action without an actor, or by an actor that is not a
// registered principal.
func Require(ctx context.Context, r memgov.PrincipalReader, actor string) error {
	if actor == "" {
		return &memgov.InputError{Kind: memgov.ErrInvalid, Input: "actor", Msg: "the action needs an actor"}
	}
	if _, err := r.Principal(ctx, actor); err != nil {
		if errors.Is(err, memgov.ErrNotFound) {
			return &memgov.InputError{Kind: memgov.ErrUnauthorized, Input: "actor", Value: actor, Msg: actor + " is not a registered principal"}
		}
		return err
	}
	return nil
}

// PermitID is Permit for the principal registered as actor, read from r
// (inside the transaction that acts); an unknown actor is ErrUnauthorized.
func (c *Checker) PermitID(ctx context.Context, r memgov.PrincipalReader, actor string, a Action, t Target) (memgov.Principal, error) {
	p, err := r.Principal(ctx, actor)
	if err != nil {
		if errors.Is(err, memgov.ErrNotFound) {
			return p, fmt.Errorf("%w: unknown principal %q", memgov.ErrUnauthorized, actor)
		}
		return p, err
	}
	return p, c.Permit(p, a, t)
}

// Govern is PermitID for an action on the whole memory of ref (a baseline, a
// drift acknowledgement, a forget by subject), after Require.
func (c *Checker) Govern(ctx context.Context, r memgov.PrincipalReader, actor, ref string, a Action) (memgov.Principal, error) {
	if err := Require(ctx, r, actor); err != nil {
		return memgov.Principal{}, err
	}
	return c.PermitID(ctx, r, actor, a, Target{Ref: ref})
}
