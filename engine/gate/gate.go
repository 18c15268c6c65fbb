// Package gate holds the steps of memgov's governed write path (DESIGN.md,
// "The write path"): idempotency, deadline, authorization, drift, rate limits
// and the gates proper (schema, policy, content policy, evidence,
// contradiction, dedup, provenance, approval).
//
// Each gate is a small type with Name and Evaluate. Evaluate takes an input
// value (the request facts the gate needs, the policy, and a reader declared
// here that lists exactly the store reads it makes) and returns what the gate
// adds: a verdict with its reason and the gate's own findings. A gate never
// writes and never shares state with another gate; the engine builds each
// input from the request and the outputs of earlier gates, and commits.
//
// A policy decision is a verdict. A failure to judge (a store read that
// fails) is an error: Evaluate returns it with no verdict, and the engine
// aborts the write.
package gate

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/engine/similar"
)

// The names of the steps of the write path, as WriteResult.Gate, the outcome
// metrics, the stage latencies and the TUI show them.
const (
	NameIdempotency   = "idempotency"
	NameDeadline      = "deadline"
	NameAuthorization = "authorization"
	NameDrift         = "drift"
	NameRateLimit     = "rate_limit"
	NameSchema        = "schema"
	NamePolicy        = "policy"
	NameContentPolicy = "content_policy"
	NameEvidence      = "evidence"
	NameContradiction = "contradiction"
	NameDedup         = "dedup"
	NameProvenance    = "provenance"
	NameApproval      = "approval"
	// NameCommit is version assignment and the log append after the gates.
	NameCommit = "commit"
)

// Reason codes the gates give their verdicts.
const (
	ReasonSchemaInvalid      = "SCHEMA_INVALID"
	ReasonInvalidRef         = "INVALID_MEMORY_REF"
	ReasonNotAdmissible      = "OBSERVATION_NOT_ADMISSIBLE"
	ReasonContentPolicy      = "CONTENT_POLICY"
	ReasonLowFactual         = "LOW_FACTUAL_SCORE"
	ReasonSelfReferential    = "SELF_REFERENTIAL_EVIDENCE"
	ReasonNoExternal         = "NO_EXTERNAL_EVIDENCE"
	ReasonProvenanceCycle    = "PROVENANCE_CYCLE"
	ReasonContradiction      = "CONTRADICTION"
	ReasonExactDuplicate     = "EXACT_DUPLICATE"
	ReasonStructuralDup      = "STRUCTURAL_DUPLICATE"
	ReasonStructuralConflict = "STRUCTURAL_CONFLICT"
	ReasonSemanticDuplicate  = "SEMANTIC_DUPLICATE"
	ReasonSemanticConflict   = "SEMANTIC_CONFLICT"
	ReasonRateLimited        = "RATE_LIMITED"
	ReasonSessionBudget      = "SESSION_BUDGET_EXHAUSTED"
	ReasonUnauthorized       = "UNAUTHORIZED"
	ReasonSuspended          = "AGENT_SUSPENDED"
	ReasonDriftDenied        = "MEMORY_DRIFT_DENIED"
	ReasonDeadline           = "DEADLINE_EXCEEDED"
	ReasonLayerConflict      = "LAYER_CONFLICT"

	ReasonReferenceOnly    = "REFERENCE_ONLY"
	ReasonLeaseHeld        = "LEASE_HELD"
	ReasonStaleFencing     = "STALE_FENCING_TOKEN"
	ReasonRoleApproval     = "APPROVAL_REQUIRED_BY_ROLE"
	ReasonLowReputation    = "LOW_REPUTATION"
	ReasonModelUnavailable = "MODEL_UNAVAILABLE"

	// ReasonInstructionInMemory holds for a person a write whose text
	// orders an action on the world (pay, send, delete, change a password)
	// in a layer that should state facts.
	ReasonInstructionInMemory = "INSTRUCTION_IN_MEMORY"
)

// Verdict is what one gate decides (spec §12.1.5).
type Verdict int

// Gate verdicts. The zero Verdict is no verdict: what a gate returns with an
// error.
const (
	// Accept lets the write go on to the next gate.
	Accept Verdict = iota + 1
	// Reject refuses the write (REJECTED).
	Reject
	// Deny refuses the writer (DENIED): who it is or the state of the
	// memory it writes forbids the write, whatever its content.
	Deny
	// Defer routes the write to a person, or, with RetryAfter, asks the
	// writer to come back later (DEFERRED).
	Defer
	// Merge folds the write into an existing version (MERGED).
	Merge
)

func (v Verdict) String() string {
	switch v {
	case Accept:
		return "ACCEPT"
	case Reject:
		return "REJECT"
	case Deny:
		return "DENY"
	case Defer:
		return "DEFER"
	case Merge:
		return "MERGE"
	}
	if v != 0 {
		return fmt.Sprintf("Verdict(%d)", int(v))
	}
	return "NONE"
}

// Result is a gate's verdict with its reason. Gates with findings return a
// result type of their own that embeds it.
type Result struct {
	Verdict Verdict
	Reason  string
	Detail  string
	// Related are the existing items behind the verdict (contradicted,
	// duplicated, merged into).
	Related []memgov.RelatedItem
	// RetryAfter is set on a DEFER the writer retries itself (a rate limit,
	// a held lease), rather than one a person decides.
	RetryAfter time.Duration
	// Next is what lifts a refusal, in memgov's terms; Detail says it in a
	// phrase, and each door names it in its own words.
	Next memgov.NextAction
}

func accept() Result { return Result{Verdict: Accept} }

func verdict(v Verdict, reason, format string, args ...any) Result {
	return Result{Verdict: v, Reason: reason, Detail: fmt.Sprintf(format, args...)}
}

func reject(reason, format string, args ...any) Result {
	return verdict(Reject, reason, format, args...)
}

func deny(reason, format string, args ...any) Result {
	return verdict(Deny, reason, format, args...)
}

// then returns r with the next action that lifts it.
func (r Result) then(next memgov.NextAction) Result {
	r.Next = next
	return r
}

// Scored is a candidate with its cosine similarity to the write.
type Scored struct {
	memgov.Candidate
	Cosine float64
}

// CandidateReader reads the indexed versions near a write.
type CandidateReader interface {
	Candidates(ctx context.Context, q memgov.CandidateQuery) ([]memgov.Candidate, error)
}

// CandidateRowReader reads in full the candidates a light query
// (memgov.CandidateQuery.Light) returned that a gate keeps.
type CandidateRowReader interface {
	CandidateRows(ctx context.Context, ids []string, layer memgov.Layer) ([]memgov.Candidate, error)
}

// candidateLimit caps the candidates a write is compared with.
const candidateLimit = 400

func candidateQuery(memoryRef, contentHash string, feat memory.Features, limit int) memgov.CandidateQuery {
	q := memgov.CandidateQuery{MemoryRef: memoryRef, ContentHash: contentHash,
		Fingerprint: feat.Fingerprint[:], Subject: feat.Subject, Limit: limit}
	for i, b := range feat.SimHash.Bands() {
		q.Bands = append(q.Bands, uint32(i)<<16|uint32(b))
	}
	return q
}

// LoadCandidates reads the visible and pending versions of memoryRef near the
// write's features, scored by cosine similarity, most similar first. The
// result is never nil.
func LoadCandidates(ctx context.Context, r CandidateReader, memoryRef, contentHash string, feat memory.Features) ([]Scored, error) {
	cs, err := r.Candidates(ctx, candidateQuery(memoryRef, contentHash, feat, candidateLimit))
	if err != nil {
		return nil, fmt.Errorf("read candidates: %w", err)
	}
	return scored(cs, feat, false)
}

// loadLight is LoadCandidates without the candidates' texts (a light
// query): versions of every state, scored by cosine similarity, most
// similar first, for fillCandidates to read in full those the gate keeps.
// It reads up to twice candidateLimit versions, so that versions no longer
// visible or pending do not crowd out those that are. minCosine, when
// positive, is the least cosine the band candidates serve: the store
// drops those whose SimHash says they cannot reach it
// (similar.MaxHamming: a miss has probability below 1e-9). Candidates by
// content hash, fingerprint or subject are never dropped.
func loadLight(ctx context.Context, r CandidateReader, memoryRef, contentHash string, feat memory.Features, minCosine float64) ([]Scored, error) {
	q := candidateQuery(memoryRef, contentHash, feat, 2*candidateLimit)
	q.Light = true
	if minCosine > 0 {
		q.MaxHamming = similar.MaxHamming(minCosine)
	}
	cs, err := r.Candidates(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("read candidates: %w", err)
	}
	return scored(cs, feat, true)
}

// fillCandidates reads in full the kept light candidates, in their order,
// with their scores: those still visible or pending, at most candidateLimit.
// full holds visible or pending versions already read in full (the topic
// query's), which it does not read again.
func fillCandidates(ctx context.Context, r CandidateRowReader, kept []Scored, full map[string]memgov.Candidate) ([]Scored, error) {
	out := make([]Scored, 0, len(kept))
	if len(kept) == 0 {
		return out, nil
	}
	var ids []string
	for _, c := range kept {
		if _, ok := full[c.VersionID]; !ok {
			ids = append(ids, c.VersionID)
		}
	}
	if len(ids) > 0 {
		cs, err := r.CandidateRows(ctx, ids, "")
		if err != nil {
			return nil, fmt.Errorf("read candidates: %w", err)
		}
		if full == nil {
			full = make(map[string]memgov.Candidate, len(cs))
		}
		for _, c := range cs {
			full[c.VersionID] = c
		}
	}
	for _, k := range kept {
		c, ok := full[k.VersionID]
		if !ok || c.State != memgov.Active && c.State != memgov.Draft {
			continue
		}
		if len(out) == candidateLimit {
			break
		}
		out = append(out, Scored{Candidate: c, Cosine: k.Cosine})
	}
	return out, nil
}

// scored scores cs by their cosine similarity to the write, most similar
// first, leaving out the versions neither visible nor pending (unless
// anyState: a light query's, whose state is not read).
func scored(cs []memgov.Candidate, feat memory.Features, anyState bool) ([]Scored, error) {
	out := make([]Scored, 0, len(cs))
	q := similar.NewQuery(feat.Embedding)
	for _, c := range cs {
		if !anyState && c.State != memgov.Active && c.State != memgov.Draft {
			continue
		}
		s := Scored{Candidate: c}
		if len(c.Embedding) > 0 { // a version never indexed has none
			cos, err := q.CosineEncoded(c.Embedding)
			if err != nil {
				return nil, fmt.Errorf("read candidates: embedding of version %s: %w", c.VersionID, err)
			}
			s.Cosine = cos
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Cosine > out[j].Cosine })
	return out, nil
}

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// Gate is one step of the write path: In is what it reads, Out what it adds.
type Gate[In, Out any] interface {
	Name() string
	Evaluate(ctx context.Context, in In) (Out, error)
}
