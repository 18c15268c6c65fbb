package gate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/judge"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
)

// EvidenceReader is what the evidence gate reads to follow MEMORY_ITEM
// evidence: who wrote a cited version or item, and what an item cites.
type EvidenceReader interface {
	Version(ctx context.Context, id string) (memgov.Version, error)
	Item(ctx context.Context, id string) (memgov.Item, error)
	// CitedItems returns the items that the visible or pending versions of an
	// item cite as MEMORY_ITEM evidence.
	CitedItems(ctx context.Context, itemID string) ([]string, error)
}

// ReasonEvidenceContradicts routes a write whose evidence excerpt states
// another value for its claim to a person.
const ReasonEvidenceContradicts = "EVIDENCE_CONTRADICTS"

// Entailer is an optional external judge of evidence (a model): how the
// premise (an excerpt) relates to the hypothesis (the claim): "entails",
// "contradiction" or "neutral", with its confidence in [0,1].
type Entailer interface {
	Entailment(ctx context.Context, premise, hypothesis string) (relation string, confidence float64, err error)
}

// EvidenceInput is what the evidence gate needs.
type EvidenceInput struct {
	// Text is the claim the evidence is to support (content.text).
	Text       string
	Agent      string
	Layer      memgov.Layer
	Evidence   []oplog.EvidenceRef
	Confidence float64 // the writer's confidence
	// Item is the existing item the write updates, if any.
	Item   *memgov.Item
	Now    time.Time
	Policy *policy.Policy
	Reader EvidenceReader
	// Rules scores support from excerpts; nil: the judge's defaults.
	Rules *judge.Judge
	// Model, when set, judges support instead of Rules.
	Model Entailer
}

// EvidenceResult is what the evidence gate finds.
type EvidenceResult struct {
	Result
	// Scored: the gate computed the factual score (durable layers only).
	Scored  bool
	Factual policy.FactualResult
	// Adjusted is the writer's confidence adjusted by the factual score.
	Adjusted float64
	// Contradicting are the excerpts that state another value for the claim.
	Contradicting []string
}

// Evidence computes V_fact (spec §12.2.3) and enforces the evidence rules: no
// self-referential evidence for SEMANTIC and PROCEDURAL, external evidence for
// durable layers (spec §12.11.4), and no provenance cycles through MEMORY_ITEM
// evidence.
type Evidence struct{}

// Name returns NameEvidence.
func (Evidence) Name() string { return NameEvidence }

// Evaluate scores the evidence of a durable write.
func (Evidence) Evaluate(ctx context.Context, in EvidenceInput) (EvidenceResult, error) {
	if !in.Layer.Durable() {
		return EvidenceResult{Result: accept()}, nil
	}
	rules := in.Rules
	if rules == nil {
		rules = defaultRules
	}
	evs := make([]policy.Evidence, 0, len(in.Evidence))
	var contradicting []string
	for _, r := range in.Evidence {
		sup, contra, err := support(ctx, in, rules, r)
		if err != nil {
			return EvidenceResult{Result: verdict(Defer, ReasonModelUnavailable, "the evidence judge failed: %v", err)}, nil
		}
		if contra != "" {
			contradicting = append(contradicting, contra)
		}
		ev := policy.Evidence{SourceType: r.SourceType, Support: sup}
		// A request may claim at most the authority the source registry
		// grants its source.
		granted := in.Policy.GrantedAuthority(r.SourceType, r.SourceURI)
		switch {
		case r.Authority != nil:
			ev.Authority = min(*r.Authority, granted)
		case granted >= 0:
			ev.Authority = granted
		}
		if r.AccessedAt != nil {
			ev.AccessedAt = *r.AccessedAt
		} else {
			ev.AccessedAt = in.Now
		}
		if r.SourceType == "AGENT_REASONING" {
			ev.SelfReferential = true
		}
		if r.SourceType == "MEMORY_ITEM" && r.SourceItemID != "" {
			self, err := writtenBy(ctx, in.Reader, r.SourceItemID, in.Agent)
			if err != nil {
				return EvidenceResult{}, err
			}
			ev.SelfReferential = self
		}
		evs = append(evs, ev)
	}
	// Provenance cycles: the write's item must not be (transitively) cited by
	// what it cites.
	if in.Item != nil {
		cyc, err := provenanceCycle(ctx, in.Reader, in.Item.ID, in.Evidence)
		if err != nil {
			return EvidenceResult{}, err
		}
		if cyc != "" {
			return EvidenceResult{Result: reject(ReasonProvenanceCycle, "the evidence chain %s leads back to %s itself", cyc, in.Item.Key)}, nil
		}
	}
	fr := in.Policy.FactualScore(string(in.Layer), evs, in.Now)
	out := EvidenceResult{Result: accept(), Scored: true, Factual: fr,
		Adjusted: in.Policy.AdjustedConfidence(in.Confidence, fr.Score, fr.MeanAuthority, false), Contradicting: contradicting}
	if len(contradicting) > 0 && fr.Pass {
		// Evidence that states another value never lets a write commit on
		// its own: a person decides.
		out.Result = verdict(Defer, ReasonEvidenceContradicts, "%s", strings.Join(contradicting, "; "))
		return out, nil
	}
	if fr.Pass {
		return out, nil
	}
	for _, v := range fr.Violations {
		switch {
		case strings.Contains(v, "SELF"):
			out.Result = reject(ReasonSelfReferential, "%s memory may not rest on the agent's own reasoning or memory (V_fact %.2f)", in.Layer, fr.Score)
			return out, nil
		case strings.Contains(v, "EXTERNAL"):
			out.Result = reject(ReasonNoExternal, "%s memory needs at least one external evidence source", in.Layer)
			return out, nil
		}
	}
	if len(contradicting) > 0 {
		out.Result = verdict(Defer, ReasonEvidenceContradicts, "%s", strings.Join(contradicting, "; "))
		return out, nil
	}
	// A low factual score goes to a person rather than into memory.
	out.Result = verdict(Defer, ReasonLowFactual, "V_fact %.2f is below the %s threshold %.2f", fr.Score, in.Layer, fr.Threshold)
	return out, nil
}

// support computes support(m, e) for one evidence reference: from its
// excerpt when it quotes one (the claim's values and key terms found in it;
// an excerpt stating another value scores 0 and is returned as contra), and
// the policy's default below 1 when it quotes none.
func support(ctx context.Context, in EvidenceInput, rules *judge.Judge, r oplog.EvidenceRef) (score float64, contra string, err error) {
	if strings.TrimSpace(r.Excerpt) == "" || strings.TrimSpace(in.Text) == "" {
		return in.Policy.Evidence.SupportWithoutExcerpt, "", nil
	}
	if in.Model != nil {
		rel, conf, err := in.Model.Entailment(ctx, r.Excerpt, in.Text)
		if err != nil {
			return 0, "", err
		}
		switch rel {
		case "entails":
			return conf, "", nil
		case "contradiction":
			return 0, fmt.Sprintf("the judge reads the excerpt of %s as contradicting the claim (%.2f)", sourceName(r), conf), nil
		}
		return min(1-conf, 0.5), "", nil
	}
	ev := rules.Support(in.Text, r.Excerpt)
	if ev.Contradicts {
		return 0, fmt.Sprintf("the excerpt of %s (%s): %s", sourceName(r), ev.Rule, ev.Explanation), nil
	}
	if len(ev.Missing) > 0 {
		ev.Score = min(ev.Score, in.Policy.Evidence.PartialSupport)
	}
	// The contradiction rules read descriptive text too (exclusive states of
	// one scene, another count of the same thing).
	if v := rules.Contradiction(r.Excerpt, in.Text); v.Contradicts {
		return 0, fmt.Sprintf("the excerpt of %s contradicts the claim: %s", sourceName(r), v.Explanation), nil
	}
	return ev.Score, "", nil
}

func sourceName(r oplog.EvidenceRef) string {
	switch {
	case r.SourceURI != "":
		return r.SourceURI
	case r.SourceItemID != "":
		return r.SourceItemID
	}
	return r.SourceType
}

// writtenBy reports whether the cited source (a version id, or an item id
// whose head version counts) was written by agent. A source that does not
// exist was not.
func writtenBy(ctx context.Context, r EvidenceReader, source, agent string) (bool, error) {
	v, err := r.Version(ctx, source)
	switch {
	case err == nil && v.CreatedBy == agent:
		return true, nil
	case err != nil && !errors.Is(err, memgov.ErrNotFound):
		return false, fmt.Errorf("read cited version %s: %w", source, err)
	}
	it, err := r.Item(ctx, source)
	if errors.Is(err, memgov.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read cited item %s: %w", source, err)
	}
	if it.Head == "" {
		return false, nil
	}
	hv, err := r.Version(ctx, it.Head)
	if errors.Is(err, memgov.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read head version %s: %w", it.Head, err)
	}
	return hv.CreatedBy == agent, nil
}

// provenanceCycle follows MEMORY_ITEM evidence from the cited items and
// reports a path back to target.
func provenanceCycle(ctx context.Context, r EvidenceReader, target string, refs []oplog.EvidenceRef) (string, error) {
	type node struct{ id, path string }
	var queue []node
	for _, ref := range refs {
		if ref.SourceType == "MEMORY_ITEM" && ref.SourceItemID != "" {
			queue = append(queue, node{ref.SourceItemID, ref.SourceItemID})
		}
	}
	seen := map[string]bool{}
	for steps := 0; len(queue) > 0 && steps < 1000; steps++ {
		n := queue[0]
		queue = queue[1:]
		id := n.id
		v, err := r.Version(ctx, id)
		switch {
		case err == nil:
			id = v.ItemID
		case !errors.Is(err, memgov.ErrNotFound):
			return "", fmt.Errorf("read cited version %s: %w", id, err)
		}
		if id == target {
			return n.path, nil
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		cited, err := r.CitedItems(ctx, id)
		if err != nil {
			return "", fmt.Errorf("read evidence of %s: %w", id, err)
		}
		for _, c := range cited {
			queue = append(queue, node{c, n.path + " -> " + c})
		}
	}
	return "", nil
}
