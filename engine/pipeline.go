package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/memgov/memgov/engine/guard"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/schema"
	"github.com/memgov/memgov/engine/scope"
	"github.com/memgov/memgov/engine/similar"
)

// Verdict is what one gate decides (seed 001, 12.1.5).
type Verdict int

// Gate verdicts.
const (
	Accept Verdict = iota
	Reject
	Defer
	Merge
)

// GateResult is a gate's decision with its reason.
type GateResult struct {
	Verdict    Verdict
	Reason     string
	Detail     string
	Related    []RelatedItem
	RetryAfter time.Duration
	Target     *Candidate // MERGE target
}

func accept() GateResult { return GateResult{Verdict: Accept} }

func reject(reason, format string, args ...any) GateResult {
	return GateResult{Verdict: Reject, Reason: reason, Detail: fmt.Sprintf(format, args...)}
}

// Gate is one stage of the write pipeline.
type Gate interface {
	Name() string
	Evaluate(ctx context.Context, w *writeState) GateResult
}

// writeState is what the gates know about one write, filled in as it passes.
type writeState struct {
	e         *Engine
	tx        Tx
	req       WriteRequest
	principal Principal
	ref       scope.Ref
	content   json.RawMessage // canonical, redacted
	hash      string          // content hash (tier 1)
	feat      Features
	now       time.Time
	pol       *policy.Policy

	confidence  float64
	factual     policy.FactualResult
	hasFactual  bool
	adjusted    float64
	validation  float64
	candidates  []scored
	contradicts []RelatedItem
	novel       bool
	review      []string // reasons that route the write to a person
	related     []RelatedItem
	supersedes  string
	findings    []string
	provenance  *Provenance
	risk        policy.RiskResult
	item        *Item // the existing item of req.Key, if any
	alerts      []string
	workspace   bool // the writer's own open workspace: the merge request is the review
}

type scored struct {
	Candidate
	cosine float64
}

func (w *writeState) needReview(reason string) {
	for _, r := range w.review {
		if r == reason {
			return
		}
	}
	w.review = append(w.review, reason)
}

// Provenance is the provenance record of a version (12.4.2), HMAC-signed.
type Provenance struct {
	ProvenanceID          string        `json:"provenance_id"`
	MemoryItemID          string        `json:"memory_item_id"`
	SourceAgentID         string        `json:"source_agent_id"`
	SourceTaskID          string        `json:"source_task_id,omitempty"`
	SourceSessionID       string        `json:"source_session_id,omitempty"`
	RequestID             string        `json:"request_id,omitempty"`
	EvidenceRefs          []EvidenceRef `json:"evidence_refs"`
	EvidenceQuality       string        `json:"evidence_quality"`
	AgentConfidence       float64       `json:"agent_confidence"`
	AdjustedConfidence    float64       `json:"adjusted_confidence"`
	ValidationScore       float64       `json:"validation_score"`
	HumanApprovalState    string        `json:"human_approval_state"`
	ApproverID            string        `json:"approver_id,omitempty"`
	ApprovalTimestamp     string        `json:"approval_timestamp,omitempty"`
	ApprovalJustification string        `json:"approval_justification,omitempty"`
	CreatedAt             string        `json:"created_at"`
	Supersedes            string        `json:"supersedes,omitempty"`
	ContentHash           string        `json:"content_hash"`
	Signature             string        `json:"provenance_signature,omitempty"`
}

// writeMeta is the payload data of a version written through the pipeline.
type writeMeta struct {
	IdempotencyToken string        `json:"idempotency_token,omitempty"`
	RequestID        string        `json:"request_id,omitempty"`
	RunID            string        `json:"run_id,omitempty"`
	SessionID        string        `json:"session_id,omitempty"`
	ObservationType  string        `json:"observation_type,omitempty"`
	Residency        string        `json:"residency,omitempty"`
	Evidence         []EvidenceRef `json:"evidence,omitempty"`
	Provenance       *Provenance   `json:"provenance,omitempty"`
	Review           *stagedReview `json:"review,omitempty"`
	Decision         *decisionData `json:"decision,omitempty"`
}

// stagedReview is the review a STAGE entry opens.
type stagedReview struct {
	ID     string          `json:"id"`
	Tier   string          `json:"tier"`
	Risk   float64         `json:"risk"`
	Reason string          `json:"reason"`
	DueAt  string          `json:"due_at"`
	Detail json.RawMessage `json:"detail"`
}

// decisionData is the payload data of APPROVE and REJECT entries.
type decisionData struct {
	ReviewID string `json:"review_id"`
	Code     string `json:"code,omitempty"`
	Note     string `json:"note,omitempty"`
}

// VersionMeta is the pipeline metadata a version entry carries, as stores
// index it.
type VersionMeta struct {
	IdempotencyToken string
	Evidence         []EvidenceRef
	// The review a STAGE entry opens.
	ReviewID, Tier, Reason, DueAt string
	Risk                          float64
	Detail                        json.RawMessage
	// The decision an APPROVE or REJECT entry records.
	DecisionReviewID, DecisionCode, DecisionNote string
}

// MetaOf decodes the pipeline metadata of a version entry's payload.
func MetaOf(p Payload) VersionMeta {
	var m writeMeta
	if len(p.Data) > 0 {
		_ = json.Unmarshal(p.Data, &m)
	}
	out := VersionMeta{IdempotencyToken: m.IdempotencyToken, Evidence: m.Evidence}
	if r := m.Review; r != nil {
		out.ReviewID, out.Tier, out.Reason, out.DueAt, out.Risk, out.Detail = r.ID, r.Tier, r.Reason, r.DueAt, r.Risk, r.Detail
	}
	if d := m.Decision; d != nil {
		out.DecisionReviewID, out.DecisionCode, out.DecisionNote = d.ReviewID, d.Code, d.Note
	}
	return out
}

// Write runs a request through the governed pipeline (DESIGN.md, "The write
// path"): idempotency, deadline, scope and authorization, drift, rate limits,
// then the gates, version assignment and one transaction.
func (e *Engine) Write(ctx context.Context, req WriteRequest) (WriteResult, error) {
	start := time.Now()
	stages := map[string]time.Duration{}
	lap := func(name string, t0 time.Time) { stages[name] += time.Since(t0) }

	// Decode-level checks that need no state.
	t0 := time.Now()
	if req.raw == nil {
		raw, err := json.Marshal(req)
		if err != nil {
			return WriteResult{}, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		req.raw = raw
	}
	red := e.redactor(req.RunID)
	if !red.Empty() {
		if err := redactRequest(&req, red); err != nil {
			return WriteResult{}, err
		}
	}
	content, cerr := canonicalContent(req.Content)
	var feat Features
	if cerr == nil {
		feat = FeaturesOf(content)
	}
	lap("prepare", t0)

	var res WriteResult
	err := e.store.Update(ctx, func(tx Tx) error {
		w := &writeState{e: e, tx: tx, req: req, content: content, feat: feat, now: e.Now(), pol: &e.policy}
		if req.Confidence != nil {
			w.confidence = *req.Confidence
		} else {
			w.confidence = 0.5
		}
		res = e.runPipeline(ctx, w, cerr, stages)
		o := Outcome{At: w.now, Agent: req.SourceAgentID, Layer: req.TargetLayer, MemoryRef: req.MemoryRef,
			SessionID: req.SessionID, Status: res.Status, Reason: res.Reason, Gate: res.Gate, Latency: time.Since(start), Stages: stages}
		return tx.RecordOutcome(ctx, o)
	})
	if err != nil {
		return WriteResult{}, err
	}
	return res, nil
}

// runPipeline evaluates every step inside the write transaction.
func (e *Engine) runPipeline(ctx context.Context, w *writeState, contentErr error, stages map[string]time.Duration) WriteResult {
	req := w.req
	fail := func(status, gate, reason, detail string) WriteResult {
		return WriteResult{Status: status, Gate: gate, Reason: reason, Detail: detail, Alerts: w.alerts}
	}
	timed := func(name string, f func() WriteResult) (WriteResult, bool) {
		t0 := time.Now()
		r := f()
		stages[name] += time.Since(t0)
		return r, r.Status != ""
	}

	// 1. Idempotency (12.1.7).
	if contentErr == nil {
		if r, done := timed("idempotency", func() WriteResult {
			token := req.IdempotencyToken
			if token == "" {
				token = IdempotencyToken(w.content, req.SourceAgentID, req.TargetLayer)
			}
			w.req.IdempotencyToken = token
			rec, ok, err := w.tx.Idempotent(ctx, token, w.now.Add(-24*time.Hour))
			if err != nil {
				return fail(StatusRejected, "idempotency", "INTERNAL", err.Error())
			}
			if !ok {
				return WriteResult{}
			}
			out := WriteResult{Status: StatusAlreadyCommitted, Gate: "idempotency", ItemID: rec.ItemID, VersionID: rec.VersionID, Key: rec.Key, ReviewID: rec.ReviewID}
			if rec.Status == StatusDeferred {
				out.Status, out.Reason = StatusDeferred, "ALREADY_PENDING"
			}
			return out
		}); done {
			return r
		}
	}
	// 2. Deadline.
	if req.Deadline != nil && w.now.After(*req.Deadline) {
		return fail(StatusDeadlineExceeded, "deadline", ReasonDeadline, "the request's deadline has passed")
	}
	// 3. Scope and authorization.
	if r, done := timed("authorization", func() WriteResult { return e.authorize(ctx, w) }); done {
		return r
	}
	// 4. Drift policy.
	if r, done := timed("drift", func() WriteResult { return e.driftStep(ctx, w) }); done {
		return r
	}
	// 5. Rate limits and the session budget (12.1.8, 12.11.2).
	if r, done := timed("rate_limit", func() WriteResult { return e.rateLimit(ctx, w) }); done {
		return r
	}
	if contentErr != nil {
		return fail(StatusRejected, "schema", ReasonSchemaInvalid, strings.TrimPrefix(contentErr.Error(), "invalid: "))
	}
	// 6. The gates.
	for _, g := range e.gates {
		t0 := time.Now()
		gr := g.Evaluate(ctx, w)
		stages[g.Name()] += time.Since(t0)
		switch gr.Verdict {
		case Reject:
			r := fail(StatusRejected, g.Name(), gr.Reason, gr.Detail)
			r.Related = keysOf(gr.Related)
			r.ValidationScore = w.scorePtr()
			return r
		case Defer:
			if gr.RetryAfter > 0 {
				r := fail(StatusDeferred, g.Name(), gr.Reason, gr.Detail)
				r.RetryAfter = f64(gr.RetryAfter.Seconds())
				return r
			}
			w.needReview(gr.Reason)
			w.related = append(w.related, gr.Related...)
		case Merge:
			t0 := time.Now()
			r := e.commitMerge(ctx, w, gr)
			stages["commit"] += time.Since(t0)
			return r
		}
	}
	t0 := time.Now()
	defer func() { stages["commit"] += time.Since(t0) }()
	if w.risk.Tier != TierAuto && !w.workspace {
		return e.stage(ctx, w)
	}
	return e.commit(ctx, w)
}

func (w *writeState) scorePtr() *float64 {
	if !w.hasFactual {
		return nil
	}
	return f64(w.validation)
}

func keysOf(rs []RelatedItem) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Key)
	}
	return out
}

// IdempotencyToken is SHA-256(canonical(content) || agent || layer) (12.1.7).
func IdempotencyToken(content json.RawMessage, agent string, layer Layer) string {
	h := sha256.New()
	h.Write(content)
	h.Write([]byte{0})
	h.Write([]byte(agent))
	h.Write([]byte{0})
	h.Write([]byte(layer))
	return hex.EncodeToString(h.Sum(nil))
}

// authorize checks the memoryRef, the principal and its right to write.
func (e *Engine) authorize(ctx context.Context, w *writeState) WriteResult {
	req := w.req
	deny := func(reason, detail string) WriteResult {
		return WriteResult{Status: StatusDenied, Gate: "authorization", Reason: reason, Detail: detail}
	}
	ref, err := scope.Parse(req.MemoryRef)
	if err != nil {
		return WriteResult{Status: StatusRejected, Gate: "authorization", Reason: ReasonInvalidRef, Detail: "memory_ref is malformed: " + errDetail(err)}
	}
	w.ref = ref
	if _, err := ParseLayer(string(req.TargetLayer)); err != nil {
		return WriteResult{Status: StatusRejected, Gate: "schema", Reason: ReasonSchemaInvalid, Detail: "/target_layer: must be one of WORKING, SESSION, EPISODIC, SEMANTIC, PROCEDURAL"}
	}
	p, err := w.tx.Principal(ctx, req.SourceAgentID)
	if err != nil {
		if isNotFound(err) {
			return deny(ReasonUnauthorized, fmt.Sprintf("unknown agent %q; register it with: memgov principal add --id %s --role executor --tenant %s",
				guard.SanitizeLine(clipStr(req.SourceAgentID, 64)), safeID(req.SourceAgentID), ref.Tenant))
		}
		return deny(ReasonUnauthorized, err.Error())
	}
	w.principal = p
	if p.Suspended {
		return deny(ReasonSuspended, fmt.Sprintf("%s's writes are suspended after a burst; a curator reinstates it with: memgov principal reinstate %s --by CURATOR", p.ID, p.ID))
	}
	if !p.Governs(ref.Tenant) {
		return deny(ReasonUnauthorized, fmt.Sprintf("%s belongs to tenant %s and may not write memory of another tenant", p.ID, p.Tenant))
	}
	layer := string(req.TargetLayer)
	w.workspace = ownWorkspace(ctx, w.tx, req.MemoryRef, p.ID)
	if !w.pol.Allowed(string(p.Role), layer, policy.OpWrite) {
		// Agents may propose durable memory their role may not write
		// directly; a person approves it (12.1.4: semantic and procedural
		// memory are governance-approved).
		// In the agent's own workspace the merge request is that approval.
		if (p.Role == Executor || p.Role == Orchestrator) && req.TargetLayer.Durable() {
			if !w.workspace {
				w.needReview("APPROVAL_REQUIRED_BY_ROLE")
			}
		} else {
			return deny(ReasonUnauthorized, fmt.Sprintf("a %s may not write %s memory", p.Role, req.TargetLayer))
		}
	}
	if req.Key != "" {
		item, err := w.tx.ItemByKey(ctx, req.MemoryRef, req.Key)
		if err == nil {
			if item.Layer != req.TargetLayer {
				return WriteResult{Status: StatusRejected, Gate: "authorization", Reason: ReasonLayerConflict,
					Detail: fmt.Sprintf("key %s holds %s memory; moving it to %s needs a reclassification", item.Key, item.Layer, req.TargetLayer)}
			}
			w.item = &item
		} else if !isNotFound(err) {
			return deny(ReasonUnauthorized, err.Error())
		}
	}
	return WriteResult{}
}

// driftStep applies the memoryRef's drift policy (agent-manifest 3.2.6.1).
func (e *Engine) driftStep(ctx context.Context, w *writeState) WriteResult {
	if driftGateHook == nil {
		return WriteResult{}
	}
	d, err := driftGateHook(e, ctx, w.tx, w.req.MemoryRef)
	if err != nil {
		return WriteResult{Status: StatusDenied, Gate: "drift", Reason: ReasonDriftDenied, Detail: err.Error()}
	}
	w.alerts = append(w.alerts, d.alerts...)
	if d.deny {
		return WriteResult{Status: StatusDenied, Gate: "drift", Reason: ReasonDriftDenied, Alerts: w.alerts,
			Detail: "memory of " + w.req.MemoryRef + " drifted from its approved baseline under deny-on-drift; an operator must acknowledge (memgov drift list)"}
	}
	return WriteResult{}
}

// driftDecision is what the drift policy says about a write.
type driftDecision struct {
	deny   bool
	alerts []string
}

// driftGateHook is set by the baseline subsystem.
var driftGateHook func(e *Engine, ctx context.Context, tx Tx, ref string) (driftDecision, error)

// rateLimit defers writes past the per-agent, per-layer limit or the session
// budget, with exponential backoff; it suspends an agent on a burst.
func (e *Engine) rateLimit(ctx context.Context, w *writeState) WriteResult {
	req, pol := w.req, w.pol
	if burst := pol.Reputation.BurstLimit; burst > 0 {
		n, err := w.tx.CountOutcomes(ctx, req.SourceAgentID, "", w.now.Add(-time.Duration(pol.Reputation.BurstWindow)))
		if err == nil && pol.Burst(n+1) {
			if err := e.suspend(ctx, w.tx, req.SourceAgentID, fmt.Sprintf("burst: %d writes within %s", n+1, time.Duration(pol.Reputation.BurstWindow))); err != nil {
				return WriteResult{Status: StatusDenied, Gate: "rate_limit", Reason: ReasonSuspended, Detail: err.Error()}
			}
			return WriteResult{Status: StatusDenied, Gate: "rate_limit", Reason: ReasonSuspended,
				Detail: fmt.Sprintf("%d writes within %s is a burst: %s is suspended until a curator reinstates it", n+1, time.Duration(pol.Reputation.BurstWindow), req.SourceAgentID)}
		}
	}
	if lim, ok := pol.RateLimits.Layers.Get(string(req.TargetLayer)); ok && lim.Writes > 0 {
		n, err := w.tx.CountOutcomes(ctx, req.SourceAgentID, req.TargetLayer, w.now.Add(-time.Duration(lim.Window)), StatusCommitted, StatusMerged, StatusDeferred)
		if err == nil && !pol.RateAllows(string(req.TargetLayer), n) {
			deferred, _ := w.tx.CountOutcomes(ctx, req.SourceAgentID, req.TargetLayer, w.now.Add(-time.Duration(lim.Window)), StatusDeferred)
			wait := pol.Backoff(deferred)
			return WriteResult{Status: StatusDeferred, Gate: "rate_limit", Reason: ReasonRateLimited, RetryAfter: f64(wait.Seconds()),
				Detail: fmt.Sprintf("%s wrote %d %s items within %s (limit %d); retry after %s", req.SourceAgentID, n, req.TargetLayer, time.Duration(lim.Window), lim.Writes, wait)}
		}
	}
	if req.SessionID != "" {
		n, err := w.tx.CountSessionCommits(ctx, req.SourceAgentID, req.SessionID)
		if err == nil && !pol.BudgetAllows(string(w.principal.Role), n) {
			wait := pol.Backoff(n)
			return WriteResult{Status: StatusDeferred, Gate: "rate_limit", Reason: ReasonSessionBudget, RetryAfter: f64(wait.Seconds()),
				Detail: fmt.Sprintf("session %s has used its write budget (%d writes)", req.SessionID, n)}
		}
	}
	return WriteResult{}
}

// OpSuspend suspends an agent's writes; OpReinstate lifts it.
const (
	OpSuspend   Op = "SUSPEND"
	OpReinstate Op = "REINSTATE"
)

func (e *Engine) suspend(ctx context.Context, tx Tx, agent, reason string) error {
	entry := &LogEntry{Time: e.Now(), Op: OpSuspend, ItemID: agent, Actor: "memgov"}
	if err := entry.Seal(Payload{Reason: reason}); err != nil {
		return err
	}
	return tx.Append(ctx, entry)
}

// Reinstate lifts an agent's suspension; only curators and operators may.
func (e *Engine) Reinstate(ctx context.Context, agent, actor, reason string) error {
	return e.store.Update(ctx, func(tx Tx) error {
		who, err := tx.Principal(ctx, actor)
		if err != nil {
			return requirePrincipal(ctx, tx, actor)
		}
		if !who.Role.Human() {
			return fmt.Errorf("%w: only curators and operators reinstate agents", ErrForbidden)
		}
		p, err := tx.Principal(ctx, agent)
		if err != nil {
			return err
		}
		if !p.Suspended {
			return fmt.Errorf("%w: %s is not suspended", ErrConflict, agent)
		}
		entry := &LogEntry{Time: e.Now(), Op: OpReinstate, ItemID: agent, Actor: actor}
		if err := entry.Seal(Payload{Reason: reason}); err != nil {
			return err
		}
		return tx.Append(ctx, entry)
	})
}

// schemaGate validates the request against the per-layer JSON Schemas and the
// seed-004 write criteria (observation types, default deny).
type schemaGate struct{ v *schema.Validator }

func (schemaGate) Name() string { return "schema" }

func (g schemaGate) Evaluate(_ context.Context, w *writeState) GateResult {
	if err := g.v.ValidateJSON(w.req.raw); err != nil {
		var se *schema.Error
		if errors.As(err, &se) {
			var msgs []string
			for _, v := range se.Violations {
				msgs = append(msgs, v.String())
			}
			return reject(ReasonSchemaInvalid, "%s", strings.Join(msgs, "; "))
		}
		return reject(ReasonSchemaInvalid, "%v", err)
	}
	if !w.pol.Admissible(string(w.req.TargetLayer), w.req.ObservationType) {
		ot := w.req.ObservationType
		if ot == "" {
			ot = "(none)"
		}
		return reject(ReasonNotAdmissible, "observation_type %s is not admitted to %s memory (write criteria, default deny)", guard.SanitizeLine(clipStr(ot, 40)), w.req.TargetLayer)
	}
	return accept()
}

// contentGate rejects memory-poisoning content (seed 004 guards, 12.11.5).
type contentGate struct{}

func (contentGate) Name() string { return "content_policy" }

func (contentGate) Evaluate(_ context.Context, w *writeState) GateResult {
	texts := []string{w.feat.Text}
	var c map[string]any
	_ = json.Unmarshal(w.content, &c)
	texts = append(texts, stringsIn(c)...)
	texts = append(texts, w.req.Tags...)
	for _, ev := range w.req.EvidenceRefs {
		texts = append(texts, ev.Excerpt)
	}
	seen := map[string]bool{}
	for _, t := range texts {
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		v := guard.Check(t)
		if !v.Allowed {
			var parts []string
			for i, f := range v.Findings {
				if i == 3 {
					break
				}
				parts = append(parts, f.Rule+": "+f.Detail)
			}
			return reject(ReasonContentPolicy, "%s", strings.Join(parts, "; "))
		}
	}
	return accept()
}

func stringsIn(v any) []string {
	var out []string
	switch x := v.(type) {
	case string:
		out = append(out, x)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, stringsIn(x[k])...)
		}
	case []any:
		for _, y := range x {
			out = append(out, stringsIn(y)...)
		}
	}
	return out
}

// evidenceGate computes V_fact (12.2.3) and enforces the evidence rules:
// no self-referential evidence for SEMANTIC and PROCEDURAL, external evidence
// for durable layers (12.11.4), and no provenance cycles through MEMORY_ITEM
// evidence.
type evidenceGate struct{}

func (evidenceGate) Name() string { return "evidence" }

func (evidenceGate) Evaluate(ctx context.Context, w *writeState) GateResult {
	if !w.req.TargetLayer.Durable() {
		return accept()
	}
	evs := make([]policy.Evidence, 0, len(w.req.EvidenceRefs))
	for _, r := range w.req.EvidenceRefs {
		ev := policy.Evidence{SourceType: r.SourceType, Support: 1}
		if r.Authority != nil {
			ev.Authority = *r.Authority
		}
		if r.AccessedAt != nil {
			ev.AccessedAt = *r.AccessedAt
		} else {
			ev.AccessedAt = w.now
		}
		if r.SourceType == "AGENT_REASONING" {
			ev.SelfReferential = true
		}
		if r.SourceType == "MEMORY_ITEM" && r.SourceItemID != "" {
			if v, err := w.tx.Version(ctx, r.SourceItemID); err == nil && v.CreatedBy == w.req.SourceAgentID {
				ev.SelfReferential = true
			} else if it, err := w.tx.Item(ctx, r.SourceItemID); err == nil {
				if hv, err := w.tx.Version(ctx, it.Head); err == nil && hv.CreatedBy == w.req.SourceAgentID {
					ev.SelfReferential = true
				}
			}
		}
		evs = append(evs, ev)
	}
	// Provenance cycles: the write's item must not be (transitively) cited by
	// what it cites.
	if w.item != nil {
		if cyc := provenanceCycle(ctx, w.tx, w.item.ID, w.req.EvidenceRefs); cyc != "" {
			return reject(ReasonProvenanceCycle, "the evidence chain %s leads back to %s itself", cyc, w.item.Key)
		}
	}
	fr := w.pol.FactualScore(string(w.req.TargetLayer), evs, w.now)
	w.factual, w.hasFactual = fr, true
	w.adjusted = w.pol.AdjustedConfidence(w.confidence, fr.Score, fr.MeanAuthority, false)
	if fr.Pass {
		return accept()
	}
	for _, v := range fr.Violations {
		switch {
		case strings.Contains(v, "SELF"):
			return reject(ReasonSelfReferential, "%s memory may not rest on the agent's own reasoning or memory (V_fact %.2f)", w.req.TargetLayer, fr.Score)
		case strings.Contains(v, "EXTERNAL"):
			return reject(ReasonNoExternal, "%s memory needs at least one external evidence source", w.req.TargetLayer)
		}
	}
	// A low factual score goes to a person rather than into memory.
	return GateResult{Verdict: Defer, Reason: ReasonLowFactual,
		Detail: fmt.Sprintf("V_fact %.2f is below the %s threshold %.2f", fr.Score, w.req.TargetLayer, fr.Threshold)}
}

// provenanceCycle follows MEMORY_ITEM evidence from the cited items and
// reports a path back to target.
func provenanceCycle(ctx context.Context, tx ReadTx, target string, refs []EvidenceRef) string {
	type node struct{ id, path string }
	var queue []node
	for _, r := range refs {
		if r.SourceType == "MEMORY_ITEM" && r.SourceItemID != "" {
			queue = append(queue, node{r.SourceItemID, r.SourceItemID})
		}
	}
	seen := map[string]bool{}
	for steps := 0; len(queue) > 0 && steps < 1000; steps++ {
		n := queue[0]
		queue = queue[1:]
		id := n.id
		if v, err := tx.Version(ctx, id); err == nil {
			id = v.ItemID
		}
		if id == target {
			return n.path
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		cited, err := tx.CitedItems(ctx, id)
		if err != nil {
			continue
		}
		for _, c := range cited {
			queue = append(queue, node{c, n.path + " -> " + c})
		}
	}
	return ""
}

// loadCandidates fetches the indexed versions near the write, once, for the
// contradiction and dedup gates.
func (w *writeState) loadCandidates(ctx context.Context) error {
	if w.candidates != nil {
		return nil
	}
	bands := w.feat.SimHash.Bands()
	q := CandidateQuery{MemoryRef: w.req.MemoryRef, ContentHash: w.hashOf(),
		Fingerprint: w.feat.Fingerprint[:], Subject: w.feat.Subject, Limit: 400}
	for i, b := range bands {
		q.Bands = append(q.Bands, uint32(i)<<16|uint32(b))
	}
	cs, err := w.tx.Candidates(ctx, q)
	if err != nil {
		return err
	}
	w.candidates = make([]scored, 0, len(cs))
	for _, c := range cs {
		if c.State != Active && c.State != Draft {
			continue
		}
		s := scored{Candidate: c}
		if v, err := similar.UnmarshalVector(c.Embedding); err == nil {
			s.cosine = similar.Cosine(w.feat.Embedding, v)
		}
		w.candidates = append(w.candidates, s)
	}
	sort.SliceStable(w.candidates, func(i, j int) bool { return w.candidates[i].cosine > w.candidates[j].cosine })
	return nil
}

func (w *writeState) hashOf() string {
	if w.hash == "" {
		w.hash = HashPayload(w.content)
	}
	return w.hash
}

func (w *writeState) ownItem(c scored) bool { return w.item != nil && c.ItemID == w.item.ID }

// Judge is an optional external contradiction checker (an NLI model or an
// LLM): it scores how strongly b contradicts a, in [0,1].
type Judge interface {
	Contradiction(ctx context.Context, a, b string) (float64, error)
}

// contradictionGate finds contradicting items (12.2.4): the same subject and
// predicate with another object, or a negation conflict among semantic
// neighbours above the topic threshold, or an external judge's verdict.
type contradictionGate struct{ judge Judge }

func (contradictionGate) Name() string { return "contradiction" }

func (g contradictionGate) Evaluate(ctx context.Context, w *writeState) GateResult {
	if !w.req.TargetLayer.Durable() {
		return accept()
	}
	if err := w.loadCandidates(ctx); err != nil {
		return reject("INTERNAL", "%v", err)
	}
	topic := w.pol.Contradiction.TopicSimilarity
	w.novel = true
	writeNegated := negated(w.feat.Text)
	var found []RelatedItem
	maxConf := 0.0
	for _, c := range w.candidates {
		if c.cosine >= topic || (w.feat.Subject != "" && c.Subject == w.feat.Subject) {
			w.novel = false
		}
		if w.ownItem(c) {
			continue
		}
		why := ""
		switch {
		case w.feat.Subject != "" && c.Subject == w.feat.Subject && c.Predicate == w.feat.Predicate &&
			c.Object != "" && w.feat.Object != "" && c.Object != w.feat.Object:
			why = "same subject and predicate, another object"
		case c.cosine >= topic && writeNegated != negated(c.Text):
			why = "negation"
		case g.judge != nil && c.cosine >= topic:
			if s, err := g.judge.Contradiction(ctx, c.Text, w.feat.Text); err == nil && s >= w.pol.Contradiction.NLIScore {
				why = fmt.Sprintf("judge %.2f", s)
			}
		}
		if why == "" {
			continue
		}
		found = append(found, RelatedItem{Relation: "CONTRADICTS", ItemID: c.ItemID, VersionID: c.VersionID, Key: c.Key,
			Text: c.Text, Similarity: round3(c.cosine), Confidence: c.Confidence, State: c.State})
		if c.Confidence > maxConf {
			maxConf = c.Confidence
		}
	}
	if len(found) == 0 {
		return accept()
	}
	res := resolveConflict(w.req.TargetLayer, w.confidence, maxConf, found)
	switch {
	case res.Keep:
		w.findings = append(w.findings, res.Why)
		return accept()
	case res.Action == ResolveUpdate:
		w.contradicts = found
		w.supersedes = res.Supersedes
		return GateResult{Verdict: Defer, Reason: ReasonContradiction, Related: found, Detail: res.Why}
	}
	w.contradicts = found
	r := reject(ReasonContradiction, "%s", res.Why)
	r.Related = found
	return r
}

var negations = []string{" not ", " no ", " never ", "n't ", " none ", " cannot ", " without "}

func negated(s string) bool {
	t := " " + similar.Normalize(s) + " "
	for _, n := range negations {
		if strings.Contains(t, n) {
			return true
		}
	}
	return false
}

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }

// dedupGate is the three-tier deduplication of 12.3.
type dedupGate struct{}

func (dedupGate) Name() string { return "dedup" }

func (dedupGate) Evaluate(ctx context.Context, w *writeState) GateResult {
	if !w.req.TargetLayer.Durable() {
		return accept()
	}
	if err := w.loadCandidates(ctx); err != nil {
		return reject("INTERNAL", "%v", err)
	}
	rel := func(c scored, relation string) RelatedItem {
		return RelatedItem{Relation: relation, ItemID: c.ItemID, VersionID: c.VersionID, Key: c.Key, Text: c.Text,
			Similarity: round3(c.cosine), Confidence: c.Confidence, State: c.State}
	}
	hash := w.hashOf()
	// Dedup compares within the write's layer (12.3.3: the hash set of layer l).
	var same []scored
	for _, c := range w.candidates {
		if c.Layer == w.req.TargetLayer {
			same = append(same, c)
		}
	}
	// Tier 1: exact content hash.
	for _, c := range same {
		if c.ContentHash == hash {
			r := reject(ReasonExactDuplicate, "identical to %s", c.Key)
			r.Related = []RelatedItem{rel(c, "DUPLICATES")}
			return r
		}
	}
	decide := func(c scored, dupReason, conflictReason string) GateResult {
		switch delta(w.feat.Text, c.Text) {
		case deltaEmpty:
			r := reject(dupReason, "adds nothing to %s (similarity %.3f)", c.Key, c.cosine)
			r.Related = []RelatedItem{rel(c, "DUPLICATES")}
			return r
		case deltaSuperset:
			if c.State == Active {
				cc := c.Candidate
				return GateResult{Verdict: Merge, Reason: dupReason, Target: &cc, Related: []RelatedItem{rel(c, "MERGES_INTO")},
					Detail: fmt.Sprintf("extends %s (similarity %.3f)", c.Key, c.cosine)}
			}
		}
		return GateResult{Verdict: Defer, Reason: conflictReason, Related: []RelatedItem{rel(c, "NEAR_DUPLICATE")},
			Detail: fmt.Sprintf("near-duplicate of %s (similarity %.3f) with conflicting details", c.Key, c.cosine)}
	}
	// Tier 2: structural fingerprint.
	for _, c := range same {
		if !w.ownItem(c) && string(c.Fingerprint) == string(w.feat.Fingerprint[:]) {
			return decide(c, ReasonStructuralDup, "STRUCTURAL_CONFLICT")
		}
	}
	// Tier 3: semantic similarity.
	for _, c := range same {
		if !w.ownItem(c) && w.pol.NearDuplicate(c.cosine) {
			return decide(c, ReasonSemanticDuplicate, ReasonSemanticConflict)
		}
	}
	return accept()
}

type deltaKind int

const (
	deltaEmpty deltaKind = iota
	deltaSuperset
	deltaConflict
)

// delta compares the information in two texts by their word sets
// (compute_information_delta of 12.3.3).
func delta(newText, oldText string) deltaKind {
	nw, ow := wordSet(newText), wordSet(oldText)
	missing, extra := 0, 0
	for w := range ow {
		if !nw[w] {
			missing++
		}
	}
	for w := range nw {
		if !ow[w] {
			extra++
		}
	}
	switch {
	case missing == 0 && extra == 0:
		return deltaEmpty
	case missing == 0:
		return deltaSuperset
	}
	return deltaConflict
}

func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, f := range strings.FieldsFunc(similar.Normalize(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 || r == '$' || r == '.' || r == ',')
	}) {
		f = strings.Trim(f, ".,")
		if f != "" && f != "a" && f != "an" && f != "the" {
			out[f] = true
		}
	}
	return out
}

// provenanceGate stamps the provenance record (12.4.2) and the composite
// validation score (12.2.5), and signs the record.
type provenanceGate struct{}

func (provenanceGate) Name() string { return "provenance" }

func (provenanceGate) Evaluate(_ context.Context, w *writeState) GateResult {
	if !w.hasFactual {
		w.adjusted = w.confidence
	}
	w.validation = w.pol.ValidationScore(true, w.factual.Score, len(w.contradicts), len(w.candidates))
	if !w.req.TargetLayer.Durable() {
		w.validation = 1
	}
	quality := "INFERRED"
	for _, r := range w.req.EvidenceRefs {
		switch r.SourceType {
		case "HUMAN_INPUT", "API_RESPONSE", "DOCUMENT":
			quality = "PRIMARY"
		case "TOOL_OUTPUT", "CODE_EXECUTION":
			if quality != "PRIMARY" {
				quality = "SECONDARY"
			}
		case "MEMORY_ITEM":
			if quality == "INFERRED" {
				quality = "DERIVED"
			}
		}
	}
	evs := append([]EvidenceRef{}, w.req.EvidenceRefs...)
	sort.SliceStable(evs, func(i, j int) bool { return authorityOf(evs[i]) > authorityOf(evs[j]) })
	w.provenance = &Provenance{ProvenanceID: NewID(), SourceAgentID: w.req.SourceAgentID, SourceTaskID: w.req.RunID,
		SourceSessionID: w.req.SessionID, RequestID: w.req.RequestID, EvidenceRefs: nonNilEv(evs), EvidenceQuality: quality,
		AgentConfidence: w.confidence, AdjustedConfidence: w.adjusted, ValidationScore: w.validation,
		HumanApprovalState: "NOT_REQUIRED", CreatedAt: w.now.Format(TimeFormat), ContentHash: w.hashOf()}
	if w.item != nil {
		w.provenance.MemoryItemID, w.provenance.Supersedes = w.item.ID, w.item.Head
	}
	return accept()
}

func nonNilEv(e []EvidenceRef) []EvidenceRef {
	if e == nil {
		return []EvidenceRef{}
	}
	return e
}

func authorityOf(r EvidenceRef) float64 {
	if r.Authority != nil {
		return *r.Authority
	}
	return 0
}

// approvalGate scores the risk R(w) (12.6.2) and picks the approval tier;
// agents below the reputation threshold always go to review (12.11.5).
type approvalGate struct{}

func (approvalGate) Name() string { return "approval" }

func (approvalGate) Evaluate(ctx context.Context, w *writeState) GateResult {
	in := policy.RiskInput{Layer: string(w.req.TargetLayer), Contradiction: len(w.contradicts) > 0,
		EvidenceAuthority: w.factual.MeanAuthority, AdjustedConfidence: w.adjusted, Novel: w.novel}
	if !w.hasFactual {
		in.EvidenceAuthority, in.AdjustedConfidence = 1, w.confidence
	}
	in.Consumers = consumers(ctx, w)
	if approved, rejected, err := w.tx.AgentRecord(ctx, w.req.SourceAgentID); err == nil && w.pol.LowReputation(approved, approved+rejected) {
		in.LowReputation = true
		w.needReview(fmt.Sprintf("LOW_REPUTATION %.2f", float64(approved)/float64(max(1, approved+rejected))))
	}
	w.risk = w.pol.Risk(in)
	if len(w.review) > 0 && w.risk.Tier == TierAuto {
		w.risk.Tier = TierAsync
	}
	if w.provenance != nil && w.risk.Tier != TierAuto {
		w.provenance.HumanApprovalState = "PENDING"
	}
	return accept()
}

// consumers estimates the blast radius (12.6.2 f_blast): the agents other
// than the writer that will read the memory. Facts and procedures (SEMANTIC,
// PROCEDURAL) and shared namespaces reach every other agent of the tenant; an
// agent's own episodic and session memory reaches no one else.
func consumers(ctx context.Context, w *writeState) int {
	shared := w.req.TargetLayer == Semantic || w.req.TargetLayer == Procedural
	for _, ns := range w.ref.Namespace {
		shared = shared || ns == "shared"
	}
	if !shared {
		return 0
	}
	ps, err := w.tx.Principals(ctx)
	if err != nil {
		return 0
	}
	n := 0
	for _, p := range ps {
		if p.Tenant == w.ref.Tenant && !p.Role.Human() && p.ID != w.req.SourceAgentID {
			n++
		}
	}
	return n
}

// versionPayload builds the payload of the version a write creates.
func (w *writeState) versionPayload(reason string, meta writeMeta) (Payload, error) {
	conf, score := w.adjusted, w.validation
	if conf == 0 {
		conf = w.confidence
	}
	tags := normTags(w.req.Tags)
	if externalContent(w.req.EvidenceRefs) {
		tags = normTags(append(tags, "external", "low-confidence"))
		if conf > 0.5 {
			conf = 0.5
		}
	}
	p := Payload{Reason: reason, Key: w.req.Key, Layer: w.req.TargetLayer, Content: w.content, ContentHash: w.hashOf(),
		Tags: tags, Confidence: &conf, ValidationScore: &score, Classification: w.req.Classification}
	ttl := time.Duration(0)
	if w.req.TTLSeconds != nil && *w.req.TTLSeconds > 0 {
		ttl = time.Duration(*w.req.TTLSeconds) * time.Second
	} else if d, ok := w.pol.TTLFor(w.req.ObservationType); ok && d > 0 && w.req.TargetLayer.Durable() {
		ttl = d
	}
	if ttl > 0 {
		p.ExpiresAt = w.now.Add(ttl).Format(TimeFormat)
	}
	meta.IdempotencyToken, meta.RequestID, meta.RunID, meta.SessionID = w.req.IdempotencyToken, w.req.RequestID, w.req.RunID, w.req.SessionID
	meta.ObservationType, meta.Residency, meta.Evidence = w.req.ObservationType, w.req.Residency, w.req.EvidenceRefs
	if w.provenance != nil {
		if err := w.signProvenance(); err != nil {
			return p, err
		}
		meta.Provenance = w.provenance
	}
	data, err := json.Marshal(meta)
	if err != nil {
		return p, err
	}
	p.Data = data
	return p, nil
}

// signProvenance signs the provenance record (HMAC over its canonical JSON
// without the signature, 12.4.5), so that every copy of it carries the
// signature: the version's payload and the review a curator reads.
func (w *writeState) signProvenance() error {
	if w.provenance == nil {
		return nil
	}
	w.provenance.Signature = ""
	sig, err := merkle.Sign(w.e.key, *w.provenance)
	if err != nil {
		return err
	}
	w.provenance.Signature = sig
	return nil
}

// VerifyProvenance checks a provenance record's signature.
func (e *Engine) VerifyProvenance(p Provenance) error {
	sig := p.Signature
	p.Signature = ""
	return merkle.VerifySignature(e.key, p, sig)
}

// externalContent reports evidence scraped from the web, which memgov keeps
// at low confidence (seed 004).
func externalContent(refs []EvidenceRef) bool {
	for _, r := range refs {
		if r.SourceType == "DOCUMENT" && (strings.HasPrefix(r.SourceURI, "http://") || strings.HasPrefix(r.SourceURI, "https://")) {
			return true
		}
	}
	return false
}

func (e *Engine) commit(ctx context.Context, w *writeState) WriteResult {
	if w.req.Key == "" {
		w.req.Key = NewID()
	}
	entry, err := e.versionEntry(ctx, w.tx, w.req.MemoryRef, w.req.Key, w.req.TargetLayer, w.req.SourceAgentID, w.now)
	if err != nil {
		return WriteResult{Status: StatusRejected, Gate: "commit", Reason: ReasonLayerConflict, Detail: err.Error()}
	}
	if w.provenance != nil {
		w.provenance.MemoryItemID = entry.ItemID
	}
	p, err := w.versionPayload("auto-approved (risk "+fmt.Sprintf("%.2f", w.risk.Score)+")", writeMeta{})
	if err == nil {
		err = entry.Seal(p)
	}
	if err == nil {
		err = w.tx.Append(ctx, entry)
	}
	if err != nil {
		return WriteResult{Status: StatusRejected, Gate: "commit", Reason: "INTERNAL", Detail: err.Error()}
	}
	return WriteResult{Status: StatusCommitted, ItemID: entry.ItemID, VersionID: entry.VersionID, Key: w.req.Key, LSN: entry.LSN,
		Tier: TierAuto, ValidationScore: f64(w.validation), RiskScore: f64(w.risk.Score), Alerts: w.alerts}
}

func (e *Engine) commitMerge(ctx context.Context, w *writeState, gr GateResult) WriteResult {
	t := gr.Target
	item, err := w.tx.Item(ctx, t.ItemID)
	if err != nil {
		return WriteResult{Status: StatusRejected, Gate: "dedup", Reason: "INTERNAL", Detail: err.Error()}
	}
	// provenance/validation of a merge: the gates after dedup did not run.
	provenanceGate{}.Evaluate(ctx, w)
	w.risk = policy.RiskResult{Tier: TierAuto}
	entry := &LogEntry{Time: w.now, Op: OpMerge, MemoryRef: item.MemoryRef, ItemID: item.ID, VersionID: NewID(), PrevVersionID: item.Head, Actor: w.req.SourceAgentID}
	mergedFrom := ""
	if w.item != nil && w.item.ID != item.ID {
		mergedFrom = w.item.Head
	}
	w.provenance.MemoryItemID = item.ID
	// 12.3.4: union of tags, maximum confidence, a version linking both.
	w.req.Key = item.Key
	w.req.Tags = append(w.req.Tags, tagsOf(ctx, w.tx, t.VersionID)...)
	if t.Confidence > w.confidence {
		w.confidence, w.adjusted = t.Confidence, max(w.adjusted, t.Confidence)
	}
	p, err := w.versionPayload(fmt.Sprintf("merge of %s and a near-duplicate write (%s)", t.Key, gr.Detail), writeMeta{})
	if err == nil {
		p.MergedFrom = mergedFrom
		err = entry.Seal(p)
	}
	if err == nil {
		err = w.tx.Append(ctx, entry)
	}
	if err != nil {
		return WriteResult{Status: StatusRejected, Gate: "dedup", Reason: "INTERNAL", Detail: err.Error()}
	}
	return WriteResult{Status: StatusMerged, Gate: "dedup", Reason: gr.Reason, Detail: gr.Detail, ItemID: item.ID, VersionID: entry.VersionID,
		Key: item.Key, LSN: entry.LSN, Related: []string{t.Key}, ValidationScore: f64(w.validation), Alerts: w.alerts}
}

func tagsOf(ctx context.Context, tx ReadTx, versionID string) []string {
	v, err := tx.Version(ctx, versionID)
	if err != nil {
		return nil
	}
	return v.Tags
}

// stage records the write as a DRAFT version with an open review.
func (e *Engine) stage(ctx context.Context, w *writeState) WriteResult {
	if w.req.Key == "" {
		w.req.Key = NewID()
	}
	entry := &LogEntry{Time: w.now, Op: OpStage, MemoryRef: w.req.MemoryRef, VersionID: NewID(), Actor: w.req.SourceAgentID}
	if w.item != nil {
		entry.ItemID, entry.PrevVersionID = w.item.ID, w.item.Head
	} else if it, err := w.tx.ItemByKey(ctx, w.req.MemoryRef, w.req.Key); err == nil {
		entry.ItemID, entry.PrevVersionID = it.ID, it.Head
	} else {
		entry.ItemID = NewID()
	}
	if w.provenance != nil {
		w.provenance.MemoryItemID = entry.ItemID
	}
	if err := w.signProvenance(); err != nil {
		return WriteResult{Status: StatusRejected, Gate: "approval", Reason: "INTERNAL", Detail: err.Error()}
	}
	reasons := append([]string{}, w.review...)
	if len(reasons) == 0 {
		reasons = []string{"HIGH_RISK"}
	}
	// The headline reason is the most specific one; a role that needs
	// approval anyway comes last.
	sort.SliceStable(reasons, func(i, j int) bool { return reasonRank(reasons[i]) < reasonRank(reasons[j]) })
	detail := ReviewDetail{Reasons: reasons, RiskFormula: w.risk.String(), Evidence: w.req.EvidenceRefs,
		Related: append(append([]RelatedItem{}, w.contradicts...), w.related...), Provenance: w.provenance,
		ValidationScore: w.validation, Supersedes: w.supersedes}
	for _, f := range w.risk.Factors {
		detail.Risk = append(detail.Risk, RiskFactorView{Name: f.Name, Weight: f.Weight, Value: f.Value, Contribution: f.Contribution})
	}
	if w.hasFactual {
		detail.Factual = &FactualView{Score: w.factual.Score, Threshold: w.factual.Threshold, Pass: w.factual.Pass}
	}
	detail.Related = dedupRelated(detail.Related)
	dj, err := json.Marshal(detail)
	if err != nil {
		return WriteResult{Status: StatusRejected, Gate: "approval", Reason: "INTERNAL", Detail: err.Error()}
	}
	due := w.now.Add(time.Duration(w.pol.Review.AsyncSLA))
	if w.risk.Tier == TierSync {
		due = w.now.Add(time.Duration(w.pol.Review.SyncMaxWait))
		if w.req.Deadline != nil && w.req.Deadline.Before(due) {
			due = *w.req.Deadline
		}
	}
	rv := &stagedReview{ID: NewID(), Tier: w.risk.Tier, Risk: w.risk.Score, Reason: reasons[0], DueAt: due.Format(TimeFormat), Detail: dj}
	p, err := w.versionPayload("staged for review: "+strings.Join(reasons, ", "), writeMeta{Review: rv})
	if err == nil {
		err = entry.Seal(p)
	}
	if err == nil {
		err = w.tx.Append(ctx, entry)
	}
	if err != nil {
		return WriteResult{Status: StatusRejected, Gate: "approval", Reason: "INTERNAL", Detail: err.Error()}
	}
	return WriteResult{Status: StatusDeferred, Gate: "approval", Reason: reasons[0], ItemID: entry.ItemID, VersionID: entry.VersionID,
		ReviewID: rv.ID, Key: w.req.Key, Tier: w.risk.Tier, LSN: entry.LSN, RetryAfter: f64(due.Sub(w.now).Seconds()),
		ValidationScore: f64(w.validation), RiskScore: f64(w.risk.Score), Related: keysOf(detail.Related), Alerts: w.alerts,
		Detail: "waiting for a curator (" + w.risk.Tier + ", risk " + fmt.Sprintf("%.2f", w.risk.Score) + ")"}
}

// reasonRank orders review reasons from the most to the least specific.
func reasonRank(r string) int {
	switch {
	case r == ReasonContradiction:
		return 0
	case r == ReasonSemanticConflict || r == "STRUCTURAL_CONFLICT":
		return 1
	case r == ReasonLowFactual:
		return 2
	case strings.HasPrefix(r, "LOW_REPUTATION"):
		return 3
	case r == "APPROVAL_REQUIRED_BY_ROLE":
		return 5
	}
	return 4
}

func dedupRelated(rs []RelatedItem) []RelatedItem {
	seen := map[string]bool{}
	out := rs[:0]
	for _, r := range rs {
		if seen[r.VersionID] {
			continue
		}
		seen[r.VersionID] = true
		out = append(out, r)
	}
	return out
}

func errDetail(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		return s[i+2:]
	}
	return s
}

func clipStr(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// safeID renders an id for a suggested command, or a placeholder.
func safeID(s string) string {
	if validID(s) {
		return s
	}
	return "AGENT_ID"
}

// NearDuplicates returns the visible or pending items of a memoryRef's layer
// whose content is at least minCosine similar to text, most similar first, as
// the dedup gate finds them (SimHash band candidates confirmed by exact cosine).
func (e *Engine) NearDuplicates(ctx context.Context, ref string, layer Layer, text string, minCosine float64) ([]RelatedItem, error) {
	content, err := json.Marshal(map[string]string{"text": text})
	if err != nil {
		return nil, err
	}
	var out []RelatedItem
	err = e.store.View(ctx, func(rtx ReadTx) error {
		w := &writeState{req: WriteRequest{MemoryRef: ref, TargetLayer: layer}, content: content, feat: FeaturesOf(content)}
		w.tx = readOnlyTx{rtx}
		if err := w.loadCandidates(ctx); err != nil {
			return err
		}
		for _, c := range w.candidates {
			if c.Layer == layer && c.cosine >= minCosine {
				out = append(out, RelatedItem{Relation: "NEAR_DUPLICATE", ItemID: c.ItemID, VersionID: c.VersionID, Key: c.Key,
					Text: c.Text, Similarity: c.cosine, State: c.State})
			}
		}
		return nil
	})
	return out, err
}

// readOnlyTx lets read-only helpers share code written against Tx.
type readOnlyTx struct{ ReadTx }

func (readOnlyTx) Append(context.Context, *LogEntry) error {
	return errors.New("memgov: append in a read-only transaction")
}
func (readOnlyTx) RecordOutcome(context.Context, Outcome) error {
	return errors.New("memgov: write in a read-only transaction")
}
