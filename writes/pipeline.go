package writes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/scope"
	"github.com/memgov/memgov/engine/similar"
	"github.com/memgov/memgov/lifecycle"
)

// This file is the orchestrator of the write path. The steps and gates live in
// engine/gate, each with its input and its result; the orchestrator builds
// every input from the request and the results of the steps before it, turns
// verdicts into the write's outcome, and commits or stages the version, all in
// one transaction. A store read that fails inside a step aborts the write:
// Write returns the error and nothing is committed or recorded.

// write is the orchestrator's record of one write as it passes the steps. It
// never leaves this file: each gate gets an input built from it and returns a
// result that runPipeline folds back in.
type write struct {
	req        memgov.WriteRequest
	content    json.RawMessage // canonical, redacted
	hash       string          // content hash (tier 1)
	feat       memory.Features
	now        time.Time
	confidence float64

	ref       scope.Ref
	principal memgov.Principal
	item      *memgov.Item // the existing item of req.Key, if any
	workspace bool         // the writer's own open workspace: the merge request is the review
	alerts    []string
	review    []string             // reasons that route the write to a person
	related   []memgov.RelatedItem // items behind the deferring verdicts
	findings  []string             // what the deferring verdicts found
	// links are near texts the dedup gate keeps the write beside
	// (NEAR_DUPLICATE, each with the judge rule that told them apart),
	// and linkDetail says so.
	links      []memgov.RelatedItem
	linkDetail string
	// rule and ruleWords name the judge rule that sent the write to a
	// person as a near-duplicate.
	rule      string
	ruleWords []string

	scored      bool // the evidence gate computed factual and adjusted
	factual     policy.FactualResult
	adjusted    float64
	validation  float64
	candidates  []gate.Scored
	contradicts []memgov.RelatedItem
	supersedes  string
	novel       bool
	provenance  *oplog.Provenance
	risk        policy.RiskResult
	scope       string // what the idempotency token covers (gate.Scope)
	modelVec    []byte // the text's vector from the configured embedder, stored with the version
}

func (w *write) needReview(reason string) {
	for _, r := range w.review {
		if r == reason {
			return
		}
	}
	w.review = append(w.review, reason)
}

func (w *write) scorePtr() *float64 {
	if !w.scored {
		return nil
	}
	return f64(w.validation)
}

// Write runs a request through the governed pipeline (DESIGN.md, "The write
// path"): idempotency, deadline, scope and authorization, drift, rate limits,
// then the gates, version assignment and one transaction. A verdict is a
// WriteResult; a failure to judge (a store read or write that fails) is an
// error naming the step, and nothing of the write is committed.
func (s *Service) Write(ctx context.Context, req memgov.WriteRequest) (memgov.WriteResult, error) {
	start := time.Now()
	stages := map[string]time.Duration{}

	// Decode-level checks that need no state.
	t0 := time.Now()
	if req.Raw == nil {
		raw, err := json.Marshal(req)
		if err != nil {
			return memgov.WriteResult{}, fmt.Errorf("%w: %v", memgov.ErrInvalid, err)
		}
		req.Raw = raw
	}
	if err := checkIdentifiers(&req); err != nil {
		// Refused like a malformed request, before anything is stored:
		// the identifier would reach the log and every terminal.
		return memgov.WriteResult{Status: memgov.StatusRejected, Gate: gate.NameSchema, Reason: gate.ReasonSchemaInvalid, Detail: err.Error()}, nil
	}
	if err := memgov.CheckKey(req.Key); err != nil {
		return memgov.WriteResult{Status: memgov.StatusRejected, Gate: gate.NameSchema, Reason: gate.ReasonSchemaInvalid, Detail: strings.TrimPrefix(err.Error(), "invalid: ")}, nil
	}
	if err := memgov.CheckExactJSON("content", req.Content); err != nil {
		return memgov.WriteResult{Status: memgov.StatusRejected, Gate: gate.NameSchema, Reason: gate.ReasonSchemaInvalid, Detail: strings.TrimPrefix(err.Error(), "invalid: ")}, nil
	}
	red := s.redactor(req.RunID)
	if !red.Empty() {
		if field := secretInIdentifier(&req, red); field != "" {
			// Refused before anything is stored: not even the outcome,
			// which would name the memoryRef.
			return memgov.WriteResult{Status: memgov.StatusRejected, Gate: "redaction", Reason: ReasonSecretInIdentifier,
				Detail: field + " contains a registered secret; identifiers cannot be redacted (SR-1)"}, nil
		}
		if err := redactRequest(&req, red); err != nil {
			return memgov.WriteResult{}, err
		}
	}
	content, cerr := canonicalContent(req.Content)
	var feat memory.Features
	if cerr == nil {
		if feat, cerr = s.Features(content); cerr != nil {
			cerr = fmt.Errorf("%w: content: %v", memgov.ErrInvalid, cerr)
		}
	}
	stages["prepare"] += time.Since(t0)
	if cerr == nil {
		// The commit indexes the version with these features: the text
		// is analysed once a write.
		ctx = withAnalysed(ctx, content, feat)
	}

	var res memgov.WriteResult
	err := s.commitWrite(ctx, &req, &res, func(tx memgov.Tx) error {
		w := &write{req: req, content: content, feat: feat, now: s.now(), confidence: 0.5}
		if req.Confidence != nil {
			w.confidence = *req.Confidence
		}
		if cerr == nil {
			w.hash = oplog.HashPayload(content)
		}
		var err error
		if res, err = s.runPipeline(ctx, tx, w, cerr, stages); err != nil {
			return err
		}
		if w.modelVec != nil && res.VersionID != "" && (res.Status == memgov.StatusCommitted || res.Status == memgov.StatusDeferred || res.Status == memgov.StatusMerged) {
			if err := tx.PutModelVector(ctx, memgov.ModelVector{VersionID: res.VersionID, MemoryRef: req.MemoryRef, Layer: req.TargetLayer,
				Model: s.embedder.Model(), Vector: w.modelVec}); err != nil {
				return commitErr("store the model vector of %s: %w", res.Key, err)
			}
		}
		o := memgov.Outcome{At: w.now, Agent: req.SourceAgentID, Layer: req.TargetLayer, MemoryRef: req.MemoryRef,
			SessionID: req.SessionID, Status: res.Status, Reason: res.Reason, Gate: res.Gate, Latency: time.Since(start), Stages: stages}
		if err := tx.RecordOutcome(ctx, o); err != nil {
			return err
		}
		return s.reviews.AfterWrite(ctx, tx, req.SourceAgentID, res)
	})
	if err != nil {
		return memgov.WriteResult{}, err
	}
	return res, nil
}

// run evaluates one step, timing it under the step's name, and names the step
// in its error.
func run[In, Out any](ctx context.Context, stages map[string]time.Duration, g gate.Gate[In, Out], in In) (Out, error) {
	t0 := time.Now()
	out, err := g.Evaluate(ctx, in)
	stages[g.Name()] += time.Since(t0)
	if err != nil {
		var zero Out
		return zero, fmt.Errorf("gate %s: %w", g.Name(), err)
	}
	return out, nil
}

// stop turns a step's verdict into the write's result when the verdict ends
// the write: REJECT, DENY, or a DEFER the writer retries itself. A DEFER for a
// person is noted and the write goes on; ok is false then and on ACCEPT.
// MERGE is the dedup gate's, handled by runPipeline.
func (w *write) stop(name string, r gate.Result) (res memgov.WriteResult, ok bool) {
	switch r.Verdict {
	case gate.Reject, gate.Deny:
		status := memgov.StatusRejected
		if r.Verdict == gate.Deny {
			status = memgov.StatusDenied
		}
		return memgov.WriteResult{Status: status, Gate: name, Reason: r.Reason, Detail: r.Detail, Related: keysOf(r.Related),
			ValidationScore: w.scorePtr(), Alerts: w.alerts}, true
	case gate.Defer:
		if r.RetryAfter > 0 {
			return w.retry(name, r), true
		}
		w.needReview(r.Reason)
		w.related = append(w.related, r.Related...)
		if r.Detail != "" {
			w.findings = append(w.findings, r.Detail)
		}
	}
	return memgov.WriteResult{}, false
}

// retry is a DEFERRED result the writer retries after r.RetryAfter.
func (w *write) retry(name string, r gate.Result) memgov.WriteResult {
	return memgov.WriteResult{Status: memgov.StatusDeferred, Gate: name, Reason: r.Reason, Detail: r.Detail,
		RetryAfter: f64(r.RetryAfter.Seconds()), Alerts: w.alerts}
}

// runPipeline evaluates every step inside the write transaction.
func (s *Service) runPipeline(ctx context.Context, tx memgov.Tx, w *write, contentErr error, stages map[string]time.Duration) (memgov.WriteResult, error) {
	req, pol := w.req, &s.policy

	// 1. Idempotency (spec §12.1.7).
	if contentErr == nil {
		idem, err := run(ctx, stages, gate.Idempotency{}, gate.IdempotencyInput{Token: req.IdempotencyToken, MemoryRef: req.MemoryRef,
			Key: req.Key, Content: w.content, Agent: req.SourceAgentID, Layer: req.TargetLayer, Now: w.now, Window: 24 * time.Hour, Reader: tx})
		if err != nil {
			return memgov.WriteResult{}, err
		}
		w.req.IdempotencyToken, w.scope = idem.Token, idem.Scope
		if r, done := w.stop(gate.NameIdempotency, idem.Result); done {
			return r, nil
		}
		if rec := idem.Replay; rec != nil {
			out := memgov.WriteResult{Status: memgov.StatusAlreadyCommitted, Gate: gate.NameIdempotency, ItemID: rec.ItemID, VersionID: rec.VersionID, Key: rec.Key, ReviewID: rec.ReviewID}
			if rec.Status == memgov.StatusDeferred {
				out.Status, out.Reason = memgov.StatusDeferred, "ALREADY_PENDING"
			}
			return out, nil
		}
	}
	// 2. Deadline.
	dl, err := run(ctx, stages, gate.Deadline{}, gate.DeadlineInput{Deadline: req.Deadline, Now: w.now})
	if err != nil {
		return memgov.WriteResult{}, err
	}
	if dl.Verdict != gate.Accept {
		return memgov.WriteResult{Status: memgov.StatusDeadlineExceeded, Gate: gate.NameDeadline, Reason: dl.Reason, Detail: dl.Detail}, nil
	}
	// 3. Scope and authorization.
	if r, done := w.checkTarget(s, stages); done {
		return r, nil
	}
	auth, err := run(ctx, stages, gate.Authorization{}, gate.AuthorizationInput{Agent: req.SourceAgentID, MemoryRef: req.MemoryRef,
		Ref: w.ref, Layer: req.TargetLayer, Key: req.Key, Policy: pol, Reader: tx, Workspaces: tx})
	if err != nil {
		return memgov.WriteResult{}, err
	}
	w.principal, w.item, w.workspace = auth.Principal, auth.Item, auth.Workspace
	for _, r := range auth.Review {
		w.needReview(r)
	}
	if r, done := w.stop(gate.NameAuthorization, auth.Result); done {
		return r, nil
	}
	// 4. Drift policy.
	d, err := run(ctx, stages, gate.Drift{}, gate.DriftInput{MemoryRef: req.MemoryRef, Reader: driftReader{s: s, tx: tx}})
	if err != nil {
		return memgov.WriteResult{}, err
	}
	w.alerts = append(w.alerts, d.Alerts...)
	if r, done := w.stop(gate.NameDrift, d.Result); done {
		return r, nil
	}
	// 5. Rate limits and the session budget (spec §12.1.8, §12.11.2).
	rl, err := run(ctx, stages, gate.RateLimit{}, gate.RateLimitInput{Agent: req.SourceAgentID, Role: w.principal.Role,
		Layer: req.TargetLayer, SessionID: req.SessionID, Now: w.now, Policy: pol, Reader: tx})
	if err != nil {
		return memgov.WriteResult{}, err
	}
	if rl.Suspend != "" {
		if err := s.suspend(ctx, tx, req.SourceAgentID, rl.Suspend); err != nil {
			return memgov.WriteResult{}, fmt.Errorf("gate %s: suspend %s: %w", gate.NameRateLimit, req.SourceAgentID, err)
		}
	}
	if rl.Verdict == gate.Defer {
		return w.retry(gate.NameRateLimit, rl.Result), nil
	}
	if r, done := w.stop(gate.NameRateLimit, rl.Result); done {
		return r, nil
	}
	if contentErr != nil {
		return memgov.WriteResult{Status: memgov.StatusRejected, Gate: gate.NameSchema, Reason: gate.ReasonSchemaInvalid,
			Detail: strings.TrimPrefix(contentErr.Error(), "invalid: "), Alerts: w.alerts}, nil
	}
	// 6. The gates.
	if r, done, err := s.runGates(ctx, tx, w, stages); done || err != nil {
		return r, err
	}
	t0 := time.Now()
	defer func() { stages[gate.NameCommit] += time.Since(t0) }()
	if w.risk.Tier != TierAuto && !w.workspace {
		return s.stage(ctx, tx, w)
	}
	return s.commit(ctx, tx, w)
}

// checkTarget parses the memoryRef and checks the target layer, before
// anything that depends on them is judged.
func (w *write) checkTarget(s *Service, stages map[string]time.Duration) (memgov.WriteResult, bool) {
	t0 := time.Now()
	defer func() { stages[gate.NameAuthorization] += time.Since(t0) }()
	ref, err := scope.Parse(w.req.MemoryRef)
	if err != nil {
		return memgov.WriteResult{Status: memgov.StatusRejected, Gate: gate.NameAuthorization, Reason: gate.ReasonInvalidRef, Detail: "memory_ref is malformed: " + errDetail(err)}, true
	}
	w.ref = ref
	if r := s.schemaGate.CheckLayer(w.req.TargetLayer); r.Verdict != gate.Accept {
		return memgov.WriteResult{Status: memgov.StatusRejected, Gate: gate.NameSchema, Reason: r.Reason, Detail: r.Detail}, true
	}
	return memgov.WriteResult{}, false
}

// runGates evaluates the gates proper, in order: schema, policy, content
// policy, evidence, contradiction, dedup, provenance, approval. done reports a
// result that ends the write (a REJECT, a retry DEFER, or a MERGE committed).
// stageJudge is the write's time in the rule-based judge, within the
// contradiction and dedup steps (recorded beside them, not added to them).
const stageJudge = "judge"

func (s *Service) runGates(ctx context.Context, tx memgov.Tx, w *write, stages map[string]time.Duration) (res memgov.WriteResult, done bool, err error) {
	req, pol := w.req, &s.policy

	sc, err := run(ctx, stages, s.schemaGate, gate.SchemaInput{Raw: req.Raw, Layer: req.TargetLayer, ObservationType: req.ObservationType, Policy: pol})
	if err != nil {
		return memgov.WriteResult{}, true, err
	}
	if r, done := w.stop(gate.NameSchema, sc); done {
		return r, true, nil
	}

	token, hasToken := lifecycle.FencingToken(ctx)
	if req.FencingToken != nil {
		token, hasToken = *req.FencingToken, true
	}
	pg, err := run(ctx, stages, gate.Policy{}, gate.PolicyInput{Principal: w.principal, Ref: w.ref, MemoryRef: req.MemoryRef,
		Layer: req.TargetLayer, Key: req.Key, Tags: req.Tags, Residency: req.Residency, Text: w.feat.Text,
		FencingToken: token, HasToken: hasToken, Now: w.now, Policy: pol, Leases: tx})
	if err != nil {
		return memgov.WriteResult{}, true, err
	}
	if r, done := w.stop(gate.NamePolicy, pg); done {
		return r, true, nil
	}

	cp, err := run(ctx, stages, gate.ContentPolicy{}, gate.ContentPolicyInput{Text: w.feat.Text, Content: w.content, Tags: req.Tags, Evidence: req.EvidenceRefs, Layer: req.TargetLayer})
	if err != nil {
		return memgov.WriteResult{}, true, err
	}
	if r, done := w.stop(gate.NameContentPolicy, cp); done {
		return r, true, nil
	}

	rules := s.rules
	entailer, _ := s.judge.(gate.Entailer)
	ev, err := run(ctx, stages, gate.Evidence{}, gate.EvidenceInput{Text: w.feat.Text, Agent: req.SourceAgentID, Layer: req.TargetLayer,
		Evidence: req.EvidenceRefs, Confidence: w.confidence, Item: w.item, Now: w.now, Policy: pol, Reader: tx, Rules: rules, Model: entailer})
	if err != nil {
		return memgov.WriteResult{}, true, err
	}
	if ev.Scored {
		w.scored, w.factual, w.adjusted = true, ev.Factual, ev.Adjusted
	}
	if r, done := w.stop(gate.NameEvidence, ev.Result); done {
		return r, true, nil
	}

	// spec §12.2.4 compares like with like: the stored confidences it weighs the
	// write against are adjusted ones, so the write's is too once scored.
	conf := w.confidence
	if w.scored {
		conf = w.adjusted
	}
	if externalContent(req.EvidenceRefs) && conf > 0.5 {
		conf = 0.5 // as versionPayload stores it
	}
	// A configured embedder: its vectors add topic neighbours and drive
	// tier-3 duplicates; a failing one sends the write to a person.
	var modelCos map[string]float64
	var modelNear []string
	if s.embedder != nil && req.TargetLayer.Durable() && strings.TrimSpace(w.feat.Text) != "" {
		t0 := time.Now()
		vec, raw, err := s.embedText(ctx, w.feat.Text)
		if err != nil {
			w.needReview(gate.ReasonModelUnavailable)
			w.alerts = append(w.alerts, err.Error())
		} else {
			w.modelVec = raw
			if modelCos, modelNear, err = s.modelNeighbours(ctx, tx, req.MemoryRef, req.TargetLayer, vec); err != nil {
				return memgov.WriteResult{}, true, fmt.Errorf("gate %s: %w", gate.NameContradiction, err)
			}
		}
		stages["embedder"] += time.Since(t0)
	}
	ct, err := run(ctx, stages, gate.Contradiction{}, gate.ContradictionInput{MemoryRef: req.MemoryRef, Layer: req.TargetLayer,
		ContentHash: w.hash, Features: w.feat, Confidence: conf, OwnItemID: w.ownItemID(), Policy: pol, Rules: rules, Judge: s.judge,
		Reader: tx, Topics: tx, ModelNeighbours: modelNear})
	if err != nil {
		return memgov.WriteResult{}, true, err
	}
	stages[stageJudge] += ct.JudgeTime
	w.candidates, w.contradicts, w.supersedes, w.novel = ct.Candidates, ct.Contradicts, ct.Supersedes, ct.Novel
	if modelCos != nil {
		// Tier 3 compares the model's similarities where the model has
		// embedded the candidate.
		for i, c := range w.candidates {
			if mc, ok := modelCos[c.VersionID]; ok {
				w.candidates[i].Cosine = mc
			}
		}
		// The model's neighbours are duplicate candidates too: its vectors
		// find paraphrases the built-in ones miss.
		for _, c := range ct.Topical {
			if mc, ok := modelCos[c.VersionID]; ok {
				c.Cosine = mc
				w.candidates = append(w.candidates, c)
			}
		}
		sort.SliceStable(w.candidates, func(i, j int) bool { return w.candidates[i].Cosine > w.candidates[j].Cosine })
	}
	if r, done := w.stop(gate.NameContradiction, ct.Result); done {
		return r, true, nil
	}

	var near gate.CandidateReader = tx
	if req.TargetLayer == memgov.Session {
		// A session note is linked to the near notes of its memoryRef:
		// the store's lookup of the SESSION layer (the contradiction gate
		// read no candidates for it).
		near = layerCandidates{tx, memgov.Session}
	}
	dd, err := run(ctx, stages, gate.Dedup{}, gate.DedupInput{MemoryRef: req.MemoryRef, Layer: req.TargetLayer, ContentHash: w.hash,
		Features: w.feat, OwnItemID: w.ownItemID(), Policy: pol, Candidates: w.candidates, Topical: ct.Topical, Reader: near, Rules: rules, Model: entailer})
	if err != nil {
		return memgov.WriteResult{}, true, err
	}
	stages[stageJudge] += dd.JudgeTime
	// A write held for its orders is never merged unseen: it goes on to a
	// person like any other held write.
	if dd.Verdict == gate.Merge && !slices.Contains(w.review, gate.ReasonInstructionInMemory) {
		t0 := time.Now()
		defer func() { stages[gate.NameCommit] += time.Since(t0) }()
		r, err := s.commitMerge(ctx, tx, w, dd)
		return r, true, err
	}
	if r, done := w.stop(gate.NameDedup, dd.Result); done {
		r.Rule, r.RuleWords = dd.Rule, dd.RuleWords
		return r, true, nil
	}
	if dd.Verdict == gate.Defer {
		w.rule, w.ruleWords = dd.Rule, dd.RuleWords
	}
	if dd.Verdict == gate.Accept && len(dd.Links) > 0 && !allRelated(dd.Links, w.contradicts) {
		// A near text the write contradicts is already beside it, with
		// the contradiction's reason; the link would say it twice.
		w.links, w.linkDetail = dd.Links, dd.Detail
	}

	if err := s.stampProvenance(ctx, w, stages); err != nil {
		return memgov.WriteResult{}, true, err
	}

	ap, err := run(ctx, stages, gate.Approval{}, gate.ApprovalInput{Agent: req.SourceAgentID, Ref: w.ref, Layer: req.TargetLayer,
		Contradiction: len(w.contradicts) > 0, Scored: w.scored, MeanAuthority: w.factual.MeanAuthority, Adjusted: w.adjusted,
		Confidence: w.confidence, Novel: w.novel, Review: w.review, Policy: pol, Reader: tx})
	if err != nil {
		return memgov.WriteResult{}, true, err
	}
	for _, r := range ap.Review {
		w.needReview(r)
	}
	w.risk = ap.Risk
	if w.provenance != nil && w.risk.Tier != TierAuto {
		w.provenance.HumanApprovalState = "PENDING"
	}
	if r, done := w.stop(gate.NameApproval, ap.Result); done {
		return r, true, nil
	}
	return memgov.WriteResult{}, false, nil
}

// stampProvenance runs the provenance gate and keeps its record, validation
// score and adjusted confidence.
func (s *Service) stampProvenance(ctx context.Context, w *write, stages map[string]time.Duration) error {
	req := w.req
	pv, err := run(ctx, stages, gate.Provenance{}, gate.ProvenanceInput{ID: oplog.NewID(), CreatedAt: w.now.Format(oplog.TimeFormat),
		Agent: req.SourceAgentID, RunID: req.RunID, SessionID: req.SessionID, RequestID: req.RequestID, Layer: req.TargetLayer,
		Evidence: req.EvidenceRefs, ContentHash: w.hash, Confidence: w.confidence, Scored: w.scored, Factual: w.factual.Score,
		Adjusted: w.adjusted, Contradictions: len(w.contradicts), Candidates: len(w.candidates), Item: w.item, Policy: &s.policy})
	if err != nil {
		return err
	}
	rec := pv.Record
	w.provenance, w.validation, w.adjusted = &rec, pv.Validation, pv.Adjusted
	return nil
}

// needsVerification reports a write whose confidence (adjusted, when the
// evidence gate scored it) is below the policy's verify_below (spec §14.4).
func (w *write) needsVerification(pol *policy.Policy) bool {
	c := w.confidence
	if w.adjusted > 0 {
		c = w.adjusted
	}
	return pol.NeedsVerification(c)
}

func (w *write) ownItemID() string {
	if w.item == nil {
		return ""
	}
	return w.item.ID
}

func keysOf(rs []memgov.RelatedItem) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Key)
	}
	return out
}

// driftReader judges a memoryRef against its baseline for the drift step.
type driftReader struct {
	s  *Service
	tx memgov.Tx
}

func (d driftReader) DriftStatus(ctx context.Context, ref string) (gate.DriftStatus, error) {
	return d.s.drift.DriftStatus(ctx, d.tx, ref)
}

func (s *Service) suspend(ctx context.Context, tx memgov.Tx, agent, reason string) error {
	entry := &oplog.Entry{Time: s.now(), Op: oplog.Suspend, ItemID: agent, Actor: "memgov"}
	return oplog.Append(ctx, tx, entry, oplog.Payload{Reason: reason})
}

// Reinstate lifts an agent's suspension; only curators and operators may.
func (s *Service) Reinstate(ctx context.Context, agent, actor, reason string) error {
	return s.store.Update(ctx, func(tx memgov.Tx) error {
		who, err := tx.Principal(ctx, actor)
		if err != nil {
			return requirePrincipal(ctx, tx, actor)
		}
		if !authz.Human(who) {
			return fmt.Errorf("%w: only curators and operators reinstate agents", memgov.ErrForbidden)
		}
		p, err := tx.Principal(ctx, agent)
		if err != nil {
			return err
		}
		if !p.Suspended {
			return fmt.Errorf("%w: %s is not suspended", memgov.ErrConflict, agent)
		}
		entry := &oplog.Entry{Time: s.now(), Op: oplog.Reinstate, ItemID: agent, Actor: actor}
		return oplog.Append(ctx, tx, entry, oplog.Payload{Reason: reason})
	})
}

// versionPayload builds the payload of the version a write creates.
func (s *Service) versionPayload(w *write, reason string, meta oplog.VersionData) (oplog.Payload, error) {
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
	p := oplog.Payload{Reason: reason, Key: w.req.Key, Layer: string(w.req.TargetLayer), Content: w.content, ContentHash: w.hash,
		Tags: tags, Confidence: &conf, ValidationScore: &score, Classification: w.req.Classification}
	ttl := time.Duration(0)
	if w.req.TTLSeconds != nil && *w.req.TTLSeconds > 0 {
		ttl = time.Duration(*w.req.TTLSeconds) * time.Second
	} else if d, ok := s.policy.TTLFor(w.req.ObservationType); ok && d > 0 && w.req.TargetLayer.Durable() {
		ttl = d
	}
	if ttl > 0 {
		p.ExpiresAt = w.now.Add(ttl).Format(oplog.TimeFormat)
	}
	meta.IdempotencyToken, meta.IdempotencyScope, meta.RequestID, meta.RunID, meta.SessionID = w.req.IdempotencyToken, w.scope, w.req.RequestID, w.req.RunID, w.req.SessionID
	meta.ObservationType, meta.Residency, meta.Evidence = w.req.ObservationType, w.req.Residency, w.req.EvidenceRefs
	meta.Source = SourceOf(w.req.EvidenceRefs)
	for _, l := range w.links {
		meta.Links = append(meta.Links, oplog.Link{Relation: l.Relation, ItemID: l.ItemID, VersionID: l.VersionID, Key: l.Key,
			Similarity: l.Similarity, Rule: l.Rule, RuleWords: l.RuleWords})
	}
	if w.provenance != nil {
		if err := s.signProvenance(w.provenance); err != nil {
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
// without the signature, spec §12.4.5), so that every copy of it carries the
// signature: the version's payload and the review a curator reads.
func (s *Service) signProvenance(p *oplog.Provenance) error {
	if p == nil {
		return nil
	}
	p.Signature = ""
	sig, err := merkle.Sign(s.key, *p)
	if err != nil {
		return err
	}
	p.Signature = sig
	return nil
}

// VerifyProvenance checks a provenance record's signature.
func (s *Service) VerifyProvenance(p oplog.Provenance) error {
	sig := p.Signature
	p.Signature = ""
	return merkle.VerifySignature(s.key, p, sig)
}

// externalContent reports evidence scraped from the web, which memgov keeps
// at low confidence (spec §14.8).
func externalContent(refs []oplog.EvidenceRef) bool {
	for _, r := range refs {
		if r.SourceType == "DOCUMENT" && (strings.HasPrefix(r.SourceURI, "http://") || strings.HasPrefix(r.SourceURI, "https://")) {
			return true
		}
	}
	return false
}

// commitErr names the commit step in an error.
func commitErr(format string, args ...any) error {
	return fmt.Errorf("%s: %w", gate.NameCommit, fmt.Errorf(format, args...))
}

func (s *Service) commit(ctx context.Context, tx memgov.Tx, w *write) (memgov.WriteResult, error) {
	if w.req.Key == "" {
		w.req.Key = oplog.NewID()
	}
	entry, err := s.VersionEntry(ctx, tx, w.req.MemoryRef, w.req.Key, w.req.TargetLayer, w.req.SourceAgentID, w.now)
	if errors.Is(err, memgov.ErrConflict) {
		return memgov.WriteResult{Status: memgov.StatusRejected, Gate: gate.NameCommit, Reason: gate.ReasonLayerConflict, Detail: err.Error(), Alerts: w.alerts}, nil
	}
	if err != nil {
		return memgov.WriteResult{}, commitErr("assign version of %s: %w", w.req.Key, err)
	}
	if w.provenance != nil {
		w.provenance.MemoryItemID = entry.ItemID
	}
	reason := "auto-approved (risk " + fmt.Sprintf("%.2f", w.risk.Score) + ")"
	if len(w.links) > 0 {
		// The link is part of the decision the log records: history
		// shows which near text the write was kept beside, and why.
		reason = w.linkDetail + "; " + reason
	}
	p, err := s.versionPayload(w, reason, oplog.VersionData{})
	if err == nil {
		err = oplog.Append(ctx, tx, entry, p)
	}
	if err != nil {
		return memgov.WriteResult{}, commitErr("append %s: %w", w.req.Key, err)
	}
	res := memgov.WriteResult{Status: memgov.StatusCommitted, ItemID: entry.ItemID, VersionID: entry.VersionID, Key: w.req.Key, LSN: entry.LSN,
		Tier: TierAuto, ValidationScore: f64(w.validation), RiskScore: f64(w.risk.Score), Alerts: w.alerts,
		NeedsVerification: w.needsVerification(&s.policy)}
	if len(w.links) > 0 {
		res.Gate, res.Detail, res.Links, res.Related = gate.NameDedup, w.linkDetail, w.links, keysOf(w.links)
		res.Rule, res.RuleWords = w.links[0].Rule, w.links[0].RuleWords
	}
	return res, nil
}

func (s *Service) commitMerge(ctx context.Context, tx memgov.Tx, w *write, dd gate.DedupResult) (memgov.WriteResult, error) {
	t := dd.Target
	item, err := tx.Item(ctx, t.ItemID)
	if err != nil {
		return memgov.WriteResult{}, commitErr("read merge target %s: %w", t.Key, err)
	}
	// provenance/validation of a merge: the gates after dedup did not run.
	if err := s.stampProvenance(ctx, w, map[string]time.Duration{}); err != nil {
		return memgov.WriteResult{}, err
	}
	w.risk = policy.RiskResult{Tier: TierAuto}
	entry := &oplog.Entry{Time: w.now, Op: oplog.Merge, MemoryRef: item.MemoryRef, ItemID: item.ID, VersionID: oplog.NewID(), PrevVersionID: item.Head, Actor: w.req.SourceAgentID}
	mergedFrom := ""
	if w.item != nil && w.item.ID != item.ID {
		mergedFrom = w.item.Head
	}
	w.provenance.MemoryItemID = item.ID
	// spec §12.3.4: union of tags, maximum confidence, a version linking both.
	v, err := tx.Version(ctx, t.VersionID)
	if err != nil {
		return memgov.WriteResult{}, commitErr("read merge target %s: %w", t.Key, err)
	}
	w.req.Key = item.Key
	w.req.Tags = append(w.req.Tags, v.Tags...)
	if t.Confidence > w.confidence {
		w.confidence, w.adjusted = t.Confidence, max(w.adjusted, t.Confidence)
	}
	p, err := s.versionPayload(w, fmt.Sprintf("merge of %s and a near-duplicate write (%s)", t.Key, dd.Detail), oplog.VersionData{})
	if err == nil {
		p.MergedFrom = mergedFrom
		err = oplog.Append(ctx, tx, entry, p)
	}
	if err != nil {
		return memgov.WriteResult{}, commitErr("append merge into %s: %w", t.Key, err)
	}
	return memgov.WriteResult{Status: memgov.StatusMerged, Gate: gate.NameDedup, Reason: dd.Reason, Detail: dd.Detail, ItemID: item.ID, VersionID: entry.VersionID,
		Key: item.Key, LSN: entry.LSN, Related: []string{t.Key}, ValidationScore: f64(w.validation), Alerts: w.alerts,
		Rule: dd.Rule, RuleWords: dd.RuleWords}, nil
}

// waitingDetail tells the writer of a staged write what it waits for and
// what the gates that deferred it found.
func waitingDetail(w *write) string {
	s := fmt.Sprintf("waiting for a curator (%s, risk %.2f)", w.risk.Tier, w.risk.Score)
	if len(w.findings) > 0 {
		s += ": " + strings.Join(w.findings, "; ")
	}
	return s
}

// stage records the write as a DRAFT version with an open review.
func (s *Service) stage(ctx context.Context, tx memgov.Tx, w *write) (memgov.WriteResult, error) {
	if w.req.Key == "" {
		w.req.Key = oplog.NewID()
	}
	entry := &oplog.Entry{Time: w.now, Op: oplog.Stage, MemoryRef: w.req.MemoryRef, VersionID: oplog.NewID(), Actor: w.req.SourceAgentID}
	if w.item != nil {
		entry.ItemID, entry.PrevVersionID = w.item.ID, w.item.Head
	} else if it, err := tx.ItemByKey(ctx, w.req.MemoryRef, w.req.Key); err == nil {
		entry.ItemID, entry.PrevVersionID = it.ID, it.Head
	} else if isNotFound(err) {
		entry.ItemID = oplog.NewID()
	} else {
		return memgov.WriteResult{}, commitErr("read item %s: %w", w.req.Key, err)
	}
	if w.provenance != nil {
		w.provenance.MemoryItemID = entry.ItemID
	}
	if err := s.signProvenance(w.provenance); err != nil {
		return memgov.WriteResult{}, commitErr("sign provenance: %w", err)
	}
	reasons := append([]string{}, w.review...)
	if len(reasons) == 0 {
		reasons = []string{"HIGH_RISK"}
	}
	// The headline reason is the most specific one; a role that needs
	// approval anyway comes last.
	sort.SliceStable(reasons, func(i, j int) bool { return reasonRank(reasons[i]) < reasonRank(reasons[j]) })
	detail := ReviewDetail{Reasons: reasons, RiskFormula: w.risk.String(), Evidence: w.req.EvidenceRefs,
		Related: append(append(append([]memgov.RelatedItem{}, w.contradicts...), w.related...), w.links...), Provenance: w.provenance,
		ValidationScore: w.validation, Supersedes: w.supersedes, NeedsVerification: w.needsVerification(&s.policy),
		Findings: w.findings}
	if detail.NeedsVerification {
		detail.Reasons = append(detail.Reasons, ReasonNeedsVerification)
	}
	if w.linkDetail != "" {
		detail.Findings = append(detail.Findings, w.linkDetail)
	}
	for _, f := range w.risk.Factors {
		detail.Risk = append(detail.Risk, RiskFactorView{Name: f.Name, Weight: f.Weight, Value: f.Value, Contribution: f.Contribution})
	}
	if w.scored {
		detail.Factual = &FactualView{Score: w.factual.Score, Threshold: w.factual.Threshold, Pass: w.factual.Pass}
	}
	detail.Related = dedupRelated(detail.Related)
	dj, err := json.Marshal(detail)
	if err != nil {
		return memgov.WriteResult{}, commitErr("encode review detail: %w", err)
	}
	due := w.now.Add(time.Duration(s.policy.Review.AsyncSLA))
	if w.risk.Tier == memgov.TierSync {
		due = w.now.Add(time.Duration(s.policy.Review.SyncMaxWait))
		if w.req.Deadline != nil && w.req.Deadline.Before(due) {
			due = *w.req.Deadline
		}
	}
	rv := &oplog.StagedReview{ID: oplog.NewID(), Tier: w.risk.Tier, Risk: w.risk.Score, Reason: reasons[0], DueAt: due.Format(oplog.TimeFormat), Detail: dj}
	p, err := s.versionPayload(w, "staged for review: "+strings.Join(reasons, ", "), oplog.VersionData{Review: rv})
	if err == nil {
		err = oplog.Append(ctx, tx, entry, p)
	}
	if err != nil {
		return memgov.WriteResult{}, commitErr("append staged %s: %w", w.req.Key, err)
	}
	return memgov.WriteResult{Status: memgov.StatusDeferred, Gate: gate.NameApproval, Reason: reasons[0], ItemID: entry.ItemID, VersionID: entry.VersionID,
		ReviewID: rv.ID, Key: w.req.Key, Tier: w.risk.Tier, LSN: entry.LSN, RetryAfter: f64(due.Sub(w.now).Seconds()),
		ValidationScore: f64(w.validation), RiskScore: f64(w.risk.Score), Related: keysOf(detail.Related), Alerts: w.alerts,
		NeedsVerification: detail.NeedsVerification, Detail: waitingDetail(w), Rule: w.rule, RuleWords: w.ruleWords, Links: w.links}, nil
}

// reasonRank orders review reasons from the most to the least specific.
func reasonRank(r string) int {
	switch {
	case r == gate.ReasonInstructionInMemory: // what the reviewer must see first
		return -1
	case r == gate.ReasonContradiction:
		return 0
	case r == gate.ReasonSemanticConflict || r == gate.ReasonStructuralConflict:
		return 1
	case r == gate.ReasonLowFactual:
		return 2
	case strings.HasPrefix(r, gate.ReasonLowReputation):
		return 3
	case r == gate.ReasonRoleApproval:
		return 5
	}
	return 4
}

// allRelated reports whether every item of rs is among those of in.
func allRelated(rs, in []memgov.RelatedItem) bool {
	for _, r := range rs {
		found := false
		for _, x := range in {
			found = found || x.VersionID == r.VersionID
		}
		if !found {
			return false
		}
	}
	return true
}

func dedupRelated(rs []memgov.RelatedItem) []memgov.RelatedItem {
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

// safeID renders an id for a suggested command, or a placeholder.
func safeID(s string) string {
	if memgov.ValidID(s) {
		return s
	}
	return "AGENT_ID"
}

// NearDuplicates returns the visible or pending items of a memoryRef's layer
// whose content is at least minCosine similar to text, most similar first, as
// the dedup gate finds them (SimHash band candidates confirmed by exact cosine).
func (s *Service) NearDuplicates(ctx context.Context, ref string, layer memgov.Layer, text string, minCosine float64) ([]memgov.RelatedItem, error) {
	content, err := json.Marshal(map[string]string{"text": text})
	if err != nil {
		return nil, err
	}
	var out []memgov.RelatedItem
	err = s.store.View(ctx, func(rtx memgov.ReadTx) error {
		feat, err := s.Features(content)
		if err != nil {
			return err
		}
		// The lookup asks for minCosine or more, so the store drops band
		// candidates whose SimHash says they cannot reach it
		// (similar.MaxHamming: a miss has probability below 1e-9).
		cs, err := gate.LoadCandidates(ctx, hammingBound{rtx, similar.MaxHamming(minCosine)}, ref, oplog.HashPayload(content), feat)
		if err != nil {
			return err
		}
		for _, c := range cs {
			if c.Layer == layer && c.Cosine >= minCosine {
				out = append(out, memgov.RelatedItem{Relation: "NEAR_DUPLICATE", ItemID: c.ItemID, VersionID: c.VersionID, Key: c.Key,
					Text: c.Text, Similarity: c.Cosine, State: c.State})
			}
		}
		return nil
	})
	return out, err
}

// hammingBound reads candidates with a bound on the SimHash distance of band
// candidates.
type hammingBound struct {
	r   gate.CandidateReader
	max int
}

func (h hammingBound) Candidates(ctx context.Context, q memgov.CandidateQuery) ([]memgov.Candidate, error) {
	q.MaxHamming = h.max
	return h.r.Candidates(ctx, q)
}

// layerCandidates reads the candidates of one layer (SESSION included)
// instead of the durable layers'.
type layerCandidates struct {
	r     gate.CandidateReader
	layer memgov.Layer
}

func (l layerCandidates) Candidates(ctx context.Context, q memgov.CandidateQuery) ([]memgov.Candidate, error) {
	q.Layer = l.layer
	return l.r.Candidates(ctx, q)
}
