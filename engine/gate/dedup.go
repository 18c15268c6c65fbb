package gate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/similar"

	"github.com/memgov/memgov/engine/judge"
	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/engine/policy"
)

// DedupInput is what the dedup gate needs.
type DedupInput struct {
	MemoryRef   string
	Layer       memgov.Layer
	ContentHash string
	Features    memory.Features
	// OwnItemID is the item the write updates, if any: it is not its own
	// near-duplicate.
	OwnItemID string
	Policy    *policy.Policy
	// Candidates are the write's neighbours when an earlier gate (the
	// contradiction gate) has read them; nil: Evaluate reads them.
	Candidates []Scored
	// Topical are the write's same-topic neighbours (the contradiction
	// gate's full-text candidates): tier 3 compares their words too.
	Topical []Scored
	Reader  CandidateReader
	// Rules is the engine's rule-based judge (the policy's relation
	// cardinalities); nil: the default cardinalities.
	Rules *judge.Judge
	// Model is the configured judge model, if any. A near-duplicate the
	// words read as reworded (no number, date, name, negation, role or
	// antonym differs) is put to it: a candidate it reads as entailing the
	// write makes the write a duplicate; a write it reads as entailing the
	// candidate extends it.
	Model Entailer
}

// rules is the judge the gate compares with.
func (in DedupInput) rules() *judge.Judge {
	if in.Rules != nil {
		return in.Rules
	}
	return defaultRules
}

// DedupResult is what the dedup gate finds.
type DedupResult struct {
	Result
	// Target is the version a MERGE folds the write into.
	Target *memgov.Candidate
	// JudgeError is set when the model failed; a write nothing else
	// decided then goes to a person (MODEL_UNAVAILABLE).
	JudgeError error
	// Rule names the judge rule that decided (a row of judge.RuleTable),
	// RuleWords the words that fired it; empty on a write no near text
	// touched.
	Rule      string
	RuleWords []string
	// After, on an EPISODIC write linked by rule repeats-event or
	// extends-event, names the rule that read it as the same claims or as
	// saying more (exact-hash, same-words, strict-superset, ...): the
	// chain that decided is After, then Rule.
	After string
	// Links are near texts the write is kept beside (relation
	// NEAR_DUPLICATE, each with its rule): on an ACCEPT the write commits
	// as its own item linked to them.
	Links []memgov.RelatedItem
	// JudgeTime is the time the gate spent in the rule-based judge
	// (reading and comparing texts), a part of its own.
	JudgeTime time.Duration
}

// Dedup is the three-tier deduplication of spec §12.3: exact content hash,
// structural fingerprint, semantic similarity, within the write's layer.
//
// The judge discards only what it proves: a write is REJECTED only when it
// states the same claims as a stored text, and MERGED only when it keeps
// every word of the stored text in the same roles and adds to it. A near
// text that differs otherwise is kept: in EPISODIC memory (and wherever
// the texts are near only by their words and a difference rule tells them
// apart) the write commits as its own item linked NEAR_DUPLICATE to it; in
// SEMANTIC and PROCEDURAL memory it goes to a person.
//
// EPISODIC memory records events (see keepsEvents): there a write is
// never REJECTED as a duplicate of another item nor MERGED into one. It
// commits as its own item, linked NEAR_DUPLICATE to the earlier episode
// with rule repeats-event (it says what the episode said) or extends-event
// (it says that and more). A retry of the same request never
// reaches this gate: the idempotency step answers it with the first
// outcome (the caller's token, or by default the digest of memoryRef, key,
// content, agent and layer, for 24 hours). The same content written again
// to the write's own item (the same key) is still REJECTED: it changes
// nothing of the item.
//
// SESSION memory is a session's notes: a write there is never rejected
// nor merged, but a near text among the SESSION versions of the same
// memoryRef (the scope SESSION reads have; the caller's Reader asks the
// store for that layer, memgov.CandidateQuery.Layer) is linked
// NEAR_DUPLICATE like an EPISODIC one, and the same content written again
// to the write's own item is a new version, as before. The contradiction
// gate never reads SESSION versions: session notes are not set against
// durable writes. WORKING memory is not deduplicated.
type Dedup struct{}

// keepsEvents reports whether layer l records events rather than claims:
// EPISODIC memory, what happened and when, and SESSION memory, a session's
// notes. The same words said at another time are another event: two
// "Thanks!" in a conversation are two turns, and an agent that reads the
// episode back must find both; "I'm doing well. How are you?" after "I'm
// doing well." is a later turn, and folding it into the earlier one would
// replace what was said first with what was said next. In SEMANTIC and
// PROCEDURAL memory the same claim stated twice is one claim.
func keepsEvents(l memgov.Layer) bool { return l == memgov.Episodic || l == memgov.Session }

// Name returns NameDedup.
func (Dedup) Name() string { return NameDedup }

// Evaluate rejects duplicates, merges a write that extends an active
// near-duplicate, and keeps one that differs from it (linked, or deferred).
func (Dedup) Evaluate(ctx context.Context, in DedupInput) (out DedupResult, err error) {
	var judged time.Duration
	defer func() { out.JudgeTime = judged }()
	if !in.Layer.Durable() && in.Layer != memgov.Session {
		return DedupResult{Result: accept()}, nil
	}
	cands := in.Candidates
	if cands == nil {
		if cands, err = LoadCandidates(ctx, in.Reader, in.MemoryRef, in.ContentHash, in.Features); err != nil {
			return DedupResult{}, err
		}
	}
	if in.Candidates == nil {
		// Read here, not by the contradiction gate: the judge answers from
		// their stored sketches where they prove the answer.
		t0 := time.Now()
		for _, c := range cands {
			in.rules().Remember(c.Text, c.Sketch)
		}
		judged += time.Since(t0)
	}
	own := func(c Scored) bool { return in.OwnItemID != "" && c.ItemID == in.OwnItemID }
	// Dedup compares within the write's layer (spec §12.3.3: the hash set of layer l).
	same := sameLayer(cands, in.Layer)
	// Tier 1: exact content hash. In EPISODIC memory the same content in
	// another item is the same words said again: linked, not rejected.
	var repeated *Scored
	for i, c := range same {
		if c.ContentHash != in.ContentHash {
			continue
		}
		if own(c) && in.Layer == memgov.Session {
			continue // a session note written again: a new version of it
		}
		if keepsEvents(in.Layer) && !own(c) {
			if repeated == nil {
				repeated = &same[i]
			}
			continue
		}
		r := reject(ReasonExactDuplicate, "identical to %s [rule %s]", c.Key, judge.RuleExactHash)
		r.Related = []memgov.RelatedItem{withRule(related(c, "DUPLICATES"), judge.RuleExactHash, nil)}
		return DedupResult{Result: r, Rule: judge.RuleExactHash}, nil
	}
	if repeated != nil {
		c := *repeated
		c.Cosine = 1
		return eventLink(c, judge.ResolveDuplicate, judge.RuleExactHash, nil, "the same content"), nil
	}
	// Tier 2: structural fingerprint.
	var (
		links       []memgov.RelatedItem
		after       string // the first link's After
		linkDetails []string
	)
	for _, c := range same {
		if !own(c) && string(c.Fingerprint) == string(in.Features.Fingerprint[:]) {
			t0 := time.Now()
			r, kind, _ := decide(in.rules(), in.Features.Text, c, in.Layer, false, ReasonStructuralDup, ReasonStructuralConflict)
			judged += time.Since(t0)
			if kind != kindLinked {
				return r, nil
			}
			if len(links) == 0 {
				after = r.After
			}
			links, linkDetails = append(links, r.Links...), append(linkDetails, r.Detail)
		}
	}
	// Tier 3: semantic similarity, by the vectors' cosine or by the words
	// the texts share once normalised. Of the near-duplicates, the write is
	// a duplicate if it states what one of them states; else it goes to a
	// person if it differs from one in SEMANTIC or PROCEDURAL memory; else
	// it merges into the nearest it extends; else it commits linked to
	// the near texts it differs from.
	var (
		best     DedupResult
		bestKind string
	)
	rank := map[string]int{judge.ResolveDuplicate: 3, judge.ResolveConflict: 2, extendsPending: 2, judge.ResolveMerge: 1}
	seen := map[string]bool{}
	for _, l := range links {
		seen[l.VersionID] = true
	}
	near, asked := 0, 0
	var judgeErr error
	var similarTo func(string, float64) (float64, bool) // the write's text read once, on first use
	for _, c := range append(same[:len(same):len(same)], sameLayer(in.Topical, in.Layer)...) {
		if own(c) || seen[c.VersionID] || near == maxNear {
			continue
		}
		seen[c.VersionID] = true
		lexical := !in.Policy.NearDuplicate(c.Cosine)
		if lexical {
			if in.Policy.Dedup.Lexical <= 0 {
				continue
			}
			t0 := time.Now()
			if similarTo == nil {
				similarTo = in.rules().SimilarTo(in.Features.Text)
			}
			sim, ok := similarTo(c.Text, in.Policy.Dedup.Lexical)
			judged += time.Since(t0)
			if !ok {
				continue
			}
			c.Cosine = max(c.Cosine, sim)
		}
		t0 := time.Now()
		r, kind, d := decide(in.rules(), in.Features.Text, c, in.Layer, lexical, ReasonSemanticDuplicate, ReasonSemanticConflict)
		judged += time.Since(t0)
		if (kind == judge.ResolveConflict || kind == kindLinked) && d.Conflict == nil && in.Model != nil && judgeErr == nil && asked < modelComparisons {
			// Reworded, by the words; the model reads the meaning.
			asked++
			mr, mk, err := askModel(ctx, in, c)
			if err != nil {
				judgeErr = err
			} else if mk != "" {
				r, kind = mr, mk
			}
		}
		near++
		if kind == kindLinked {
			if len(links) == 0 {
				after = r.After
			}
			links, linkDetails = append(links, r.Links...), append(linkDetails, r.Detail)
			continue
		}
		if rank[kind] > rank[bestKind] {
			best, bestKind = r, kind
		}
	}
	if bestKind != "" {
		best.JudgeError = judgeErr
		if best.Verdict == Defer {
			// The person sees every near text the write differs from.
			best.Related = append(best.Related, links...)
		}
		return best, nil
	}
	if judgeErr != nil {
		return DedupResult{JudgeError: judgeErr, Links: links, Result: verdict(Defer, ReasonModelUnavailable, "the duplicate judge failed: %v", judgeErr)}, nil
	}
	out = DedupResult{Result: accept(), Links: links}
	if len(links) > 0 {
		out.Rule, out.RuleWords, out.After = links[0].Rule, links[0].RuleWords, after
		out.Detail = strings.Join(linkDetails, "; ")
	}
	return out, nil
}

func quoteRuleWords(ws []string) string {
	if len(ws) == 0 {
		return ""
	}
	const most = 8
	q := make([]string, 0, min(len(ws), most))
	for i, w := range ws {
		if i == most {
			break
		}
		q = append(q, fmt.Sprintf("%q", w))
	}
	s := ": " + strings.Join(q, ", ")
	if len(ws) > most {
		s += fmt.Sprintf(" and %d more", len(ws)-most)
	}
	return s
}

func withRule(r memgov.RelatedItem, rule string, words []string) memgov.RelatedItem {
	r.Rule, r.RuleWords = rule, words
	return r
}

// kindLinked is decide's kind for a near text the write is kept beside
// and linked to, committing on its own.
const kindLinked = "linked"

// askModel puts a reworded near-duplicate to the judge model: the write
// is a duplicate when the model reads the candidate as entailing it, and
// extends the candidate when it reads the write as entailing the
// candidate, each at the policy's NLI score or above. kind is "" when the
// model reads neither.
func askModel(ctx context.Context, in DedupInput, c Scored) (DedupResult, string, error) {
	least := in.Policy.Contradiction.NLIScore
	text := in.Features.Text
	rel, conf, err := in.Model.Entailment(ctx, c.Text, text)
	if err != nil {
		return DedupResult{}, "", err
	}
	if rel == "entails" && conf >= least {
		if keepsEvents(in.Layer) {
			return eventLink(c, judge.ResolveDuplicate, judge.RuleModelEntails, nil,
				fmt.Sprintf("the judge model reads it as stating all the write states (%.2f)", conf)), kindLinked, nil
		}
		r := reject(ReasonSemanticDuplicate, "adds nothing to %s: the judge model reads it as stating all the write states (%.2f) [rule %s]", c.Key, conf, judge.RuleModelEntails)
		r.Related = []memgov.RelatedItem{withRule(related(c, "DUPLICATES"), judge.RuleModelEntails, nil)}
		return DedupResult{Result: r, Rule: judge.RuleModelEntails}, judge.ResolveDuplicate, nil
	}
	rel, conf, err = in.Model.Entailment(ctx, text, c.Text)
	if err != nil {
		return DedupResult{}, "", err
	}
	if rel != "entails" || conf < least {
		return DedupResult{}, "", nil
	}
	if keepsEvents(in.Layer) {
		return eventLink(c, judge.ResolveMerge, judge.RuleModelExtends, nil,
			fmt.Sprintf("the judge model reads the write as stating all it states and more (%.2f)", conf)), kindLinked, nil
	}
	r, kind := extend(c, c.Key, fmt.Sprintf("the judge model reads the write as stating all it states and more (%.2f)", conf),
		ReasonSemanticDuplicate, ReasonSemanticConflict, judge.RuleModelExtends, nil)
	return r, kind, nil
}

// extend is the result for a write that says all c says and more: a MERGE
// into c when c is ACTIVE; one still waiting for a curator is decided
// together with the write that extends it (DEFER, c linked). head names c
// and why says how the write extends it.
func extend(c Scored, head, why, dupReason, conflictReason, rule string, words []string) (DedupResult, string) {
	if c.State == memgov.Active {
		target := c.Candidate
		return DedupResult{Target: &target, Rule: rule, RuleWords: words, Result: Result{Verdict: Merge, Reason: dupReason,
			Related: []memgov.RelatedItem{withRule(related(c, "MERGES_INTO"), rule, words)},
			Detail:  fmt.Sprintf("extends %s: %s; the earlier text stays in its history [rule %s%s]", head, why, rule, quoteRuleWords(words))}}, judge.ResolveMerge
	}
	return DedupResult{Rule: judge.RuleExtendsPending, RuleWords: words, Result: Result{Verdict: Defer, Reason: conflictReason,
		Related: []memgov.RelatedItem{withRule(related(c, "NEAR_DUPLICATE"), judge.RuleExtendsPending, words)},
		Detail:  fmt.Sprintf("extends %s, which is %s and cannot take a merge: %s; a curator decides both [rule %s, after %s]", head, c.State, why, judge.RuleExtendsPending, rule)}}, extendsPending
}

// extendsPending is decide's kind for a write that would merge into a
// near-duplicate that is not ACTIVE (a draft waiting for a curator): it is
// deferred with the draft linked, lexical match or not.
const extendsPending = "extends-pending"

// maxNear bounds the near-duplicates a write is compared with.
const maxNear = 8

func sameLayer(cs []Scored, l memgov.Layer) []Scored {
	var out []Scored
	for _, c := range cs {
		if c.Layer == l {
			out = append(out, c)
		}
	}
	return out
}

func related(c Scored, relation string) memgov.RelatedItem {
	return memgov.RelatedItem{Relation: relation, ItemID: c.ItemID, VersionID: c.VersionID, Key: c.Key, Text: c.Text,
		Similarity: round3(c.Cosine), Confidence: c.Confidence, State: c.State}
}

// decide resolves a near-duplicate by the information delta of spec
// §12.3.2 (judge.Compare and its rule table): a write that states the same
// claims is REJECTED, one that keeps every word of the candidate in the
// same roles and adds to it is MERGED into it (the candidate stays in the
// item's history), and one that differs from it (a number, date, name,
// negation, role, a reworded or shortened fact) is kept: linked to it
// (kindLinked) in EPISODIC memory, or where the texts are near only by
// their words and a difference rule tells them apart; else it goes to a
// person, who keeps both or merges them. A write that differs is never
// rejected as a duplicate nor merged. In EPISODIC memory (keepsEvents) a
// duplicate or a merge is a link too (eventLink): the earlier episode is
// never replaced nor the later one dropped.
func decide(rules *judge.Judge, text string, c Scored, layer memgov.Layer, lexical bool, dupReason, conflictReason string) (DedupResult, string, judge.Delta) {
	d := rules.Compare(c.Text, text)
	dec := d.Decide()
	if dupReason == ReasonStructuralDup && dec.Kind != judge.ResolveDuplicate && (d.Conflict == nil || d.Conflict.Rule == judge.RulePrepositionRole) && rules.SameClaims(c.Text, text) {
		// The same claims in the same roles and nothing else (every
		// content word a claim's): a passive for an active ("the service
		// is owned by Ravi" / "Ravi owns the service"), a relation stated
		// in other words, prepositions included ("Bob works at Acme" /
		// "Bob is employed by Acme"). The same fingerprint alone is not
		// enough: words no claim reads may have changed places ("at the
		// clinic ... at the lab" / "at the lab ... at the clinic"), nor
		// are the claims when a difference rule they do not read fired
		// ("some admins" / "admins": the claims read no quantifier). A
		// preposition they read themselves, with the relation's own
		// ("works at" / "employed by").
		dec = judge.Decision{Kind: judge.ResolveDuplicate, Rule: judge.RuleSameClaims, Words: dec.Words, Why: "the same claims in the same roles"}
	}
	if keepsEvents(layer) && (dec.Kind == judge.ResolveDuplicate || dec.Kind == judge.ResolveMerge) {
		return eventLink(c, dec.Kind, dec.Rule, dec.Words, dec.Why), kindLinked, d
	}
	switch dec.Kind {
	case judge.ResolveDuplicate:
		r := reject(dupReason, "adds nothing to %s (similarity %.3f): it states the same claims [rule %s%s]", c.Key, c.Cosine, dec.Rule, quoteRuleWords(dec.Words))
		r.Related = []memgov.RelatedItem{withRule(related(c, "DUPLICATES"), dec.Rule, dec.Words)}
		return DedupResult{Result: r, Rule: dec.Rule, RuleWords: dec.Words}, dec.Kind, d
	case judge.ResolveMerge:
		r, kind := extend(c, fmt.Sprintf("%s (similarity %.3f)", c.Key, c.Cosine), dec.Why, dupReason, conflictReason, dec.Rule, dec.Words)
		return r, kind, d
	}
	link := withRule(related(c, "NEAR_DUPLICATE"), dec.Rule, dec.Words)
	if keepsEvents(layer) || lexical && d.Conflict != nil {
		// Kept as its own item beside the near text: a person reads
		// EPISODIC memory's links, not a queue of every near event; texts
		// near only by their words that a difference rule tells apart are
		// distinct records ("order 17 shipped to Oslo" / "order 18
		// shipped to Rome").
		r := accept()
		r.Detail = fmt.Sprintf("near-duplicate of %s (similarity %.3f) that differs: %s [rule %s%s]; kept as its own item, linked NEAR_DUPLICATE",
			c.Key, c.Cosine, dec.Why, dec.Rule, quoteRuleWords(dec.Words))
		return DedupResult{Result: r, Rule: dec.Rule, RuleWords: dec.Words, Links: []memgov.RelatedItem{link}}, kindLinked, d
	}
	return DedupResult{Rule: dec.Rule, RuleWords: dec.Words, Result: Result{Verdict: Defer, Reason: conflictReason, Related: []memgov.RelatedItem{link},
		Detail: fmt.Sprintf("near-duplicate of %s (similarity %.3f) that differs: %s [rule %s%s]", c.Key, c.Cosine, dec.Why, dec.Rule, quoteRuleWords(dec.Words))}}, dec.Kind, d
}

// eventLink is the result for a write to EPISODIC memory that says what
// the earlier episode c said (kind judge.ResolveDuplicate) or all of it and
// more (judge.ResolveMerge), as rule after read it: the write commits as
// its own item, linked NEAR_DUPLICATE to c with rule repeats-event or
// extends-event, and c stays as it was. why says what after read.
func eventLink(c Scored, kind, after string, words []string, why string) DedupResult {
	rule, what, event := judge.RuleRepeatsEvent, "repeats", "said again, it is another event"
	if kind == judge.ResolveMerge {
		rule, what, event = judge.RuleExtendsEvent, "extends", "a later event, which a merge would put in place of the earlier one"
	}
	r := accept()
	r.Detail = fmt.Sprintf("%s %s (similarity %.3f): %s; %s: kept as its own item, linked NEAR_DUPLICATE [rule %s, after %s%s]",
		what, c.Key, c.Cosine, why, event, rule, after, quoteRuleWords(words))
	return DedupResult{Result: r, Rule: rule, RuleWords: words, After: after, Links: []memgov.RelatedItem{withRule(related(c, "NEAR_DUPLICATE"), rule, words)}}
}

// PairJudgement is what the contradiction and dedup gates decide for a
// write of one text to a memoryRef that holds one other, active text: the
// two gates called as the write pipeline calls them (the contradiction
// gate first, its candidates handed to the dedup gate), without a model.
type PairJudgement struct {
	// Cosine is the tier-3 similarity of the two texts' features.
	Cosine float64
	// Contradiction and Dedup are the two gates' results; Dedup is zero
	// when the contradiction gate ended the write.
	Contradiction ContradictionResult
	Dedup         DedupResult
	// Contradicts is the judge's contradiction verdict on the pair (the
	// rule the contradiction gate reads), and Delta the dedup delta.
	Contradicts judge.Verdict
	Delta       judge.Delta
}

// JudgePair judges text b written after text a, both plain text, in
// layer under pol, the way the write pipeline's contradiction and dedup
// gates judge a write against its stored neighbours. The stored text is
// found the way the store finds candidates: by content hash, fingerprint,
// subject or SimHash band, and as a topic neighbour when the texts share a
// word.
func JudgePair(ctx context.Context, pol *policy.Policy, layer memgov.Layer, a, b string) (PairJudgement, error) {
	content := func(text string) (json.RawMessage, string, error) {
		raw, err := canon.Marshal(map[string]string{"text": text})
		if err != nil {
			return nil, "", err
		}
		sum := sha256.Sum256(raw)
		return raw, "sha256:" + hex.EncodeToString(sum[:]), nil
	}
	ca, ha, err := content(a)
	if err != nil {
		return PairJudgement{}, err
	}
	cb, hb, err := content(b)
	if err != nil {
		return PairJudgement{}, err
	}
	fa, err := memory.FeaturesOf(ca)
	if err != nil {
		return PairJudgement{}, err
	}
	fb, err := memory.FeaturesOf(cb)
	if err != nil {
		return PairJudgement{}, err
	}
	emb, err := fa.Embedding.MarshalBinary()
	if err != nil {
		return PairJudgement{}, err
	}
	stored := memgov.Candidate{VersionID: "stored-version", ItemID: "stored-item", Key: "stored", Layer: layer, State: memgov.Active,
		ContentHash: ha, Fingerprint: fa.Fingerprint[:], Subject: fa.Subject, Predicate: fa.Predicate, Object: fa.Object,
		Embedding: emb, Text: a, Confidence: 0.9}
	r := pairReader{c: stored, bands: fa.SimHash.Bands()}
	rules := judge.New(pol.Contradiction.Cardinalities())
	out := PairJudgement{Cosine: similar.Cosine(fa.Embedding, fb.Embedding), Contradicts: rules.Contradiction(a, b), Delta: rules.Compare(a, b)}
	ct, err := Contradiction{}.Evaluate(ctx, ContradictionInput{MemoryRef: "pair", Layer: layer, ContentHash: hb, Features: fb,
		Confidence: 0.9, Policy: pol, Rules: rules, Reader: r, Topics: r})
	if err != nil {
		return out, err
	}
	out.Contradiction = ct
	if ct.Verdict == Reject || ct.Verdict == Deny || ct.Verdict == Defer && ct.RetryAfter > 0 {
		return out, nil
	}
	dd, err := Dedup{}.Evaluate(ctx, DedupInput{MemoryRef: "pair", Layer: layer, ContentHash: hb, Features: fb, Policy: pol,
		Candidates: ct.Candidates, Topical: ct.Topical, Reader: r, Rules: rules})
	if err != nil {
		return out, err
	}
	out.Dedup = dd
	return out, nil
}

// pairReader serves one stored version as JudgePair's candidate.
type pairReader struct {
	c     memgov.Candidate
	bands [similar.NumBands]uint16
}

func (p pairReader) Candidates(_ context.Context, q memgov.CandidateQuery) ([]memgov.Candidate, error) {
	match := q.ContentHash == p.c.ContentHash || string(q.Fingerprint) == string(p.c.Fingerprint) || q.Subject != "" && q.Subject == p.c.Subject
	for i, b := range p.bands {
		if slices.Contains(q.Bands, uint32(i)<<16|uint32(b)) {
			match = true
		}
	}
	if !match {
		return nil, nil
	}
	return []memgov.Candidate{p.c}, nil
}

func (p pairReader) TopicCandidates(_ context.Context, q memgov.TopicQuery) ([]memgov.Candidate, error) {
	words := map[string]bool{}
	for _, w := range strings.Fields(judge.Normalize(p.c.Text)) {
		words[w] = true
	}
	for _, w := range strings.Fields(judge.Normalize(q.Text)) {
		if words[w] {
			return []memgov.Candidate{p.c}, nil
		}
	}
	return nil, nil
}
