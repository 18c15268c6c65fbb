package gate

import (
	"context"
	"fmt"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/scope"
)

// ApprovalReader is what the approval gate reads: the writer's review record
// and the principals that would read the memory.
type ApprovalReader interface {
	// AgentRecord counts an agent's reviewed writes by decision.
	AgentRecord(ctx context.Context, agent string) (approved, rejected int, err error)
	Principals(ctx context.Context) ([]memgov.Principal, error)
}

// ApprovalInput is what the approval gate needs: the request's facts and what
// the earlier gates found.
type ApprovalInput struct {
	Agent string
	Ref   scope.Ref // the memoryRef, parsed
	Layer memgov.Layer
	// Contradiction: the write contradicts existing memory.
	Contradiction bool
	// Scored: the evidence gate scored the write (MeanAuthority, Adjusted).
	Scored        bool
	MeanAuthority float64
	Adjusted      float64
	Confidence    float64 // the writer's confidence
	Novel         bool
	// Review lists the reasons earlier steps found to route the write to a
	// person.
	Review []string
	Policy *policy.Policy
	Reader ApprovalReader
}

// ApprovalResult is what the approval gate finds.
type ApprovalResult struct {
	Result
	// Risk is R(w) with its factors and the approval tier (spec §12.6.2); the
	// tier is at least ASYNC_REVIEW when any reason routes the write to a
	// person.
	Risk policy.RiskResult
	// Review lists the reasons the gate adds (LOW_REPUTATION).
	Review []string
}

// Approval scores the risk R(w) (spec §12.6.2) and picks the approval tier; agents
// below the reputation threshold always go to review (spec §12.11.5).
type Approval struct{}

// Name returns NameApproval.
func (Approval) Name() string { return NameApproval }

// Evaluate scores the write. It always accepts: the tier says whether a
// person decides.
func (Approval) Evaluate(ctx context.Context, in ApprovalInput) (ApprovalResult, error) {
	ri := policy.RiskInput{Layer: string(in.Layer), Contradiction: in.Contradiction,
		EvidenceAuthority: in.MeanAuthority, AdjustedConfidence: in.Adjusted, Novel: in.Novel}
	if !in.Scored {
		ri.EvidenceAuthority, ri.AdjustedConfidence = 1, in.Confidence
	}
	n, err := consumers(ctx, in)
	if err != nil {
		return ApprovalResult{}, err
	}
	ri.Consumers = n
	approved, rejected, err := in.Reader.AgentRecord(ctx, in.Agent)
	if err != nil {
		return ApprovalResult{}, fmt.Errorf("read review record of %s: %w", in.Agent, err)
	}
	out := ApprovalResult{Result: accept()}
	if in.Policy.LowReputation(approved, approved+rejected) {
		ri.LowReputation = true
		out.Review = append(out.Review, fmt.Sprintf("%s %.2f", ReasonLowReputation, float64(approved)/float64(max(1, approved+rejected))))
	}
	out.Risk = in.Policy.Risk(ri)
	if len(in.Review)+len(out.Review) > 0 && out.Risk.Tier == policy.AutoApprove {
		out.Risk.Tier = policy.AsyncReview
	}
	return out, nil
}

// consumers estimates the blast radius (spec §12.6.2 f_blast): the agents other
// than the writer that will read the memory. Facts and procedures (SEMANTIC,
// PROCEDURAL) and shared namespaces reach every other agent of the tenant; an
// agent's own episodic and session memory reaches no one else.
func consumers(ctx context.Context, in ApprovalInput) (int, error) {
	shared := in.Layer == memgov.Semantic || in.Layer == memgov.Procedural
	for _, ns := range in.Ref.Namespace {
		shared = shared || ns == "shared"
	}
	if !shared {
		return 0, nil
	}
	ps, err := in.Reader.Principals(ctx)
	if err != nil {
		return 0, fmt.Errorf("read principals: %w", err)
	}
	n := 0
	for _, p := range ps {
		if authz.AgentOfTenant(p, in.Ref.Tenant) && p.ID != in.Agent {
			n++
		}
	}
	return n, nil
}
