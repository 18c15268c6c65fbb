package lifecycle

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/judge"
	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/redact"
	"github.com/memgov/memgov/engine/scope"
	"github.com/memgov/memgov/engine/similar"
)

// MaxConsolidate bounds the entries one pass compares (pairwise, O(n^2)
// cosines): a ref with more long-term entries is consolidated over its
// newest MaxConsolidate.
const MaxConsolidate = 2000

// ConsolidateRequest asks for one consolidation pass.
type ConsolidateRequest struct {
	MemoryRef string
	Actor     string // a registered principal governing the ref's tenant
	RunID     string // whose secrets are redacted again, with the global ones
}

// ConsolidateResult reports a pass.
type ConsolidateResult struct {
	MemoryRef    string   `json:"memoryRef"`
	InputCount   int      `json:"inputCount"`
	OutputCount  int      `json:"outputCount"`
	Merged       int      `json:"merged"`       // entries folded into one that states all they state
	Superseded   int      `json:"superseded"`   // stale facts replaced by a newer one
	Strengthened int      `json:"strengthened"` // entries whose confidence rose by corroboration
	Keys         []string `json:"keys"`         // entries that stopped being visible
	LSN          int64    `json:"lsn"`
	// Rules counts the entries merged or superseded by the judge rule
	// that decided each (exact-hash, same-words, same-claims,
	// strict-superset, single-valued).
	Rules map[string]int `json:"rules"`
	// Changes lists each entry merged or superseded: into which entry, by
	// which rule.
	Changes []ConsolidateChange `json:"changes"`
	// Kept counts the pairs of near entries the judge kept apart, by the
	// rule that told them apart (role-swap, name-differs, repeats-event,
	// ...): nothing was folded there because a fact would have been lost.
	Kept map[string]int `json:"kept"`
}

// A ConsolidateChange is one entry a consolidation pass folded into
// another.
type ConsolidateChange struct {
	Key    string `json:"key"`    // the entry that stopped being visible
	Into   string `json:"into"`   // the entry that now holds what it stated
	Action string `json:"action"` // ChangeMerged or ChangeSuperseded
	Rule   string `json:"rule"`   // the judge rule that decided (a row of judge.RuleTable)
	// Words are the words that fired the rule, when it names some.
	Words []string `json:"words,omitempty"`
}

// ConsolidateChange actions.
const (
	ChangeMerged     = "merged"
	ChangeSuperseded = "superseded"
)

type consEntry struct {
	v    memgov.Version
	f    memory.Features
	conf float64
	// words are the entry's normalised words (judge.Normalize).
	words map[string]bool
}

// consHold is the judge's reading that one entry states all another
// states: rule names why, words are those that fired it.
type consHold struct {
	rule  string
	words []string
}

// Consolidate runs one consolidation pass (spec §15.8) over the
// long-term (EPISODIC, SEMANTIC, PROCEDURAL), ACTIVE, unexpired entries of one
// memoryRef — never another's. It judges as the write path does, with the
// engine's judge (the policy's relation cardinalities), and discards only
// what the judge proves another entry holds:
//
//  1. entries near each other (same layer; the same content, structural
//     fingerprint, cosine at least the dedup threshold, or enough words
//     shared for a fold: see consNear) are put to the dedup gate, the older
//     as the stored text and the newer as the write, and, where the newer
//     says less, the other way round.
//     An entry folds into another only when the gate would REJECT one as
//     stating the same claims (rules exact-hash, same-words, same-claims:
//     the newer survives) or MERGE it as keeping every word of the other
//     and adding to it (strict-superset: the superset survives, and holds
//     both). A word swap, another name, number, negation, a text that
//     leaves words out: each is kept, counted in Kept by its rule. EPISODIC
//     entries are events and never fold into each other. The survivor gets
//     a MERGE version with the union of tags; when different writers
//     corroborate it, its confidence rises to 1 - prod(1 - c_i) (at most
//     0.99), else to the highest of theirs;
//  2. a stale fact — an entry of the same SEMANTIC or PROCEDURAL layer
//     that a newer one contradicts on a single-valued relation (rule
//     single-valued: the judge's relation table and the policy's
//     cardinalities) — is superseded by the newest such (a MERGE that keeps
//     the newer's content). A multi-valued relation ("speaks French" /
//     "speaks German") is never a stale fact; EPISODIC entries never are.
//
// Each MERGE version's reason names its rule ("[rule same-words]").
// Merged content is the surviving entry's content passed through SR-1
// redaction again. Because survivors keep their content and no survivor
// holds another, a second pass over an unchanged corpus finds nothing to do
// (outputCount == inputCount). Every change is a log entry, and a final
// CONSOLIDATE entry emits agent.memory.consolidated {inputCount,
// outputCount, memoryRef}.
func (e *Service) Consolidate(ctx context.Context, r ConsolidateRequest) (ConsolidateResult, error) {
	empty := func() ConsolidateResult {
		return ConsolidateResult{MemoryRef: r.MemoryRef, Keys: []string{}, Rules: map[string]int{}, Changes: []ConsolidateChange{}, Kept: map[string]int{}}
	}
	res := empty()
	_, err := scope.Parse(r.MemoryRef)
	if err != nil {
		return res, fmt.Errorf("%w: memory ref: %v", memgov.ErrInvalid, err)
	}
	red := e.redactor(r.RunID)
	err = e.store.Update(ctx, func(tx memgov.Tx) error {
		if err := requirePrincipal(ctx, tx, r.Actor); err != nil {
			return err
		}
		if _, err := e.permitTx(ctx, tx, r.Actor, authz.ActConsolidate, authz.Target{Ref: r.MemoryRef}); err != nil {
			return err
		}
		vs, err := tx.Active(ctx, memgov.ActiveQuery{MemoryRef: r.MemoryRef, Now: e.now()})
		if err != nil {
			return err
		}
		var es []*consEntry
		for _, v := range vs {
			if memgov.Reserved(v.Key) || !v.Layer.Durable() || v.MemoryRef != r.MemoryRef {
				continue
			}
			f, err := e.featuresOf(v.Content)
			if err != nil {
				return fmt.Errorf("consolidate: version %s: %w", v.ID, err)
			}
			es = append(es, &consEntry{v: v, f: f, conf: v.Confidence})
		}
		sort.Slice(es, func(i, j int) bool { return es[i].v.CreatedLSN > es[j].v.CreatedLSN })
		if len(es) > MaxConsolidate {
			es = es[:MaxConsolidate]
		}
		for _, c := range es {
			c.words = map[string]bool{}
			for _, w := range strings.Fields(judge.Normalize(c.f.Text)) {
				c.words[w] = true
			}
		}
		res.InputCount = len(es)

		// 1. Entries another states in full. holders[y][x]: x states all y
		// states. es is newest first: the smaller index is the newer.
		holders := make([]map[int]consHold, len(es))
		for i := range holders {
			holders[i] = map[int]consHold{}
		}
		for i := range es {
			for j := i + 1; j < len(es); j++ {
				newer, older := es[i], es[j]
				if newer.v.Layer != older.v.Layer || !e.consNear(older, newer) {
					continue
				}
				fwd, err := e.consJudge(ctx, older, newer)
				if err != nil {
					return err
				}
				if consKeepsEvents(newer.v.Layer) {
					// Events: the same words said at another time are
					// another event, kept (rule repeats-event or
					// extends-event, as the write path links them).
					if fwd.Rule != "" {
						res.Kept[fwd.Rule]++
					}
					continue
				}
				switch fwd.Verdict {
				case gate.Reject:
					// The same claims, read either way: each holds the other.
					h := consHold{rule: fwd.Rule, words: fwd.RuleWords}
					holders[j][i], holders[i][j] = h, h
					continue
				case gate.Merge:
					holders[j][i] = consHold{rule: fwd.Rule, words: fwd.RuleWords}
					continue
				}
				if fwd.Rule == judge.RuleSubset {
					// The newer says less: does the older keep every word
					// of it and add?
					back, err := e.consJudge(ctx, newer, older)
					if err != nil {
						return err
					}
					if back.Verdict == gate.Merge {
						holders[i][j] = consHold{rule: back.Rule, words: back.RuleWords}
						continue
					}
				}
				if fwd.Rule != "" {
					res.Kept[fwd.Rule]++
				}
			}
		}
		// x dominates y when x holds y and, if y holds x too (the same
		// claims), x is the newer. Each round folds every dominated entry
		// that an undominated one holds directly into the newest such; it
		// ends when none folds. A chain (y held by x, x by z) folds y only
		// into an entry the judge read as holding y itself.
		dominates := func(x, y int) bool {
			if _, ok := holders[y][x]; !ok {
				return false
			}
			_, mutual := holders[x][y]
			return !mutual || x < y
		}
		alive := make([]bool, len(es))
		for i := range alive {
			alive[i] = true
		}
		into := map[int]int{}
		for {
			dominated := make([]bool, len(es))
			for y := range es {
				for x := range holders[y] {
					if alive[x] && alive[y] && dominates(x, y) {
						dominated[y] = true
					}
				}
			}
			moved := false
			for y := range es {
				if !alive[y] || !dominated[y] {
					continue
				}
				best := -1
				for x := range holders[y] {
					if alive[x] && !dominated[x] && (best < 0 || x < best) {
						best = x
					}
				}
				if best >= 0 {
					into[y], alive[y], moved = best, false, true
				}
			}
			if !moved {
				break
			}
		}
		clusters := map[int][]int{}
		for y, x := range into {
			clusters[x] = append(clusters[x], y)
		}
		for _, root := range consSortedInts(clusters) {
			rep := es[root]
			others := clusters[root]
			writers := map[string]bool{rep.v.CreatedBy: true}
			tags := append([]string{}, rep.v.Tags...)
			keep := 1 - clamp01(rep.conf)
			best := rep.conf
			for _, m := range others {
				writers[es[m].v.CreatedBy] = true
				tags = append(tags, es[m].v.Tags...)
				keep *= 1 - clamp01(es[m].conf)
				best = math.Max(best, es[m].conf)
			}
			conf := best
			if len(writers) > 1 {
				conf = math.Max(best, math.Min(0.99, 1-keep))
				if conf > rep.conf {
					res.Strengthened++
				}
			}
			sort.Slice(others, func(i, j int) bool { return es[others[i]].v.Key < es[others[j]].v.Key })
			for _, m := range others {
				o, h := es[m], holders[m][root]
				head, err := e.mergeInto(ctx, tx, red, rep, o, normTags(tags), conf, r.Actor,
					fmt.Sprintf("consolidation: merged near-duplicate %s: %s [rule %s%s]", o.v.Key, consWhy(h.rule), h.rule, consQuoteWords(h.words)))
				if err != nil {
					return err
				}
				rep.v.ID = head
				res.record(o.v.Key, rep.v.Key, ChangeMerged, h.rule, h.words)
			}
			rep.conf = conf
		}

		// 2. Stale facts: an entry a newer survivor of its layer
		// contradicts on a single-valued relation is superseded by the
		// newest such. Oldest first, so that a winner superseded in turn
		// has taken its merges before.
		for j := len(es) - 1; j >= 0; j-- {
			o := es[j]
			if !alive[j] || consKeepsEvents(o.v.Layer) {
				continue
			}
			for i := 0; i < j; i++ {
				w := es[i]
				if !alive[i] || w.v.Layer != o.v.Layer || !consSharesWord(o, w) {
					continue
				}
				v := e.rules.Contradiction(o.f.Text, w.f.Text)
				if !v.Contradicts || v.Rule != judge.RuleSingleValued || v.A == nil || e.rules.Cardinality(v.A.Relation) != judge.Single {
					continue
				}
				head, err := e.mergeInto(ctx, tx, red, w, o, w.v.Tags, w.conf, r.Actor,
					fmt.Sprintf("consolidation: %s supersedes the stale fact %s: %s [rule %s]", w.v.Key, o.v.Key, v.Explanation, v.Rule))
				if err != nil {
					return err
				}
				w.v.ID = head
				alive[j] = false
				res.record(o.v.Key, w.v.Key, ChangeSuperseded, v.Rule, nil)
				break
			}
		}
		res.OutputCount = res.InputCount - res.Merged - res.Superseded
		data, err := json.Marshal(oplog.ConsolidateData{InputCount: res.InputCount, OutputCount: res.OutputCount,
			Merged: res.Merged, Superseded: res.Superseded, Strengthened: res.Strengthened})
		if err != nil {
			return err
		}
		entry := &oplog.Entry{Time: e.now(), Op: oplog.Consolidate, MemoryRef: r.MemoryRef, Actor: r.Actor}
		if err := oplog.Append(ctx, tx, entry, oplog.Payload{Reason: "consolidation pass", Data: data}); err != nil {
			return err
		}
		res.LSN = entry.LSN
		return nil
	})
	if err != nil {
		return empty(), err
	}
	return res, nil
}

// record counts one entry merged or superseded.
func (r *ConsolidateResult) record(key, into, action, rule string, words []string) {
	if action == ChangeMerged {
		r.Merged++
	} else {
		r.Superseded++
	}
	r.Keys = append(r.Keys, key)
	r.Rules[rule]++
	r.Changes = append(r.Changes, ConsolidateChange{Key: key, Into: into, Action: action, Rule: rule, Words: words})
}

// consKeepsEvents reports whether layer l records events (EPISODIC memory):
// the same words at another time are another event, never folded.
func consKeepsEvents(l memgov.Layer) bool { return l == memgov.Episodic }

// consFoldSimilarity is the least share of words (judge.Similarity) two
// texts near only by their words have when the judge folds one into the
// other: the same words share all; a strict superset keeps every word of
// the other and adds at most half as many again (more is rule
// adds-a-statement, kept apart), so shares at least 2/(1+1.5) = 0.8.
const consFoldSimilarity = 0.8

// consNear reports whether a and b are near enough for the dedup gate to
// fold one into the other: the same content, or texts with the same
// structural fingerprint, a cosine at least the dedup threshold, or words
// shared at least the lexical threshold and consFoldSimilarity. The gate
// judges the pairs it finds; a pair it leaves out would not fold. Entries
// without text are near only when their content is the same.
func (e *Service) consNear(a, b *consEntry) bool {
	if a.v.ContentHash == b.v.ContentHash {
		return true
	}
	if strings.TrimSpace(a.f.Text) == "" || strings.TrimSpace(b.f.Text) == "" {
		return false
	}
	if a.f.Fingerprint == b.f.Fingerprint || e.policy.NearDuplicate(similar.Cosine(a.f.Embedding, b.f.Embedding)) {
		return true
	}
	if e.policy.Dedup.Lexical <= 0 || consPlainShare(a, b) < consFoldSimilarity/2 {
		// Too few words in common for the judge's pairing of words (short
		// forms, names, inflections) to bring the share to
		// consFoldSimilarity: not read, as the write path reads only the
		// candidates its lookups find.
		return false
	}
	_, ok := e.rules.SimilarAtLeast(a.f.Text, b.f.Text, max(e.policy.Dedup.Lexical, consFoldSimilarity))
	return ok
}

// consJudge is the dedup gate's verdict on write as a write against stored
// as its one stored near text, with the engine's judge and no model: what
// the write path decides, by the judge's rules alone.
func (e *Service) consJudge(ctx context.Context, stored, write *consEntry) (gate.DedupResult, error) {
	c := gate.Scored{Candidate: memgov.Candidate{VersionID: stored.v.ID, ItemID: stored.v.ItemID, Key: stored.v.Key, Layer: stored.v.Layer,
		State: memgov.Active, ContentHash: stored.v.ContentHash, Fingerprint: stored.f.Fingerprint[:], Subject: stored.f.Subject,
		Predicate: stored.f.Predicate, Object: stored.f.Object, Text: stored.f.Text, Confidence: stored.conf, CreatedBy: stored.v.CreatedBy},
		Cosine: similar.Cosine(write.f.Embedding, stored.f.Embedding)}
	r, err := gate.Dedup{}.Evaluate(ctx, gate.DedupInput{MemoryRef: write.v.MemoryRef, Layer: write.v.Layer, ContentHash: write.v.ContentHash,
		Features: write.f, Policy: &e.policy, Candidates: []gate.Scored{c}, Rules: e.rules})
	if err != nil {
		return gate.DedupResult{}, fmt.Errorf("consolidate: judge %s against %s: %w", write.v.Key, stored.v.Key, err)
	}
	return r, nil
}

// consWhy says in words what a fold rule read.
func consWhy(rule string) string {
	if rule == judge.RuleStrictSuperset {
		return "the surviving entry keeps every word of it and adds to it"
	}
	return "it states the same claims"
}

// consPlainShare is the share of normalised words a and b write alike
// (their Dice coefficient, without the judge's pairing of words).
func consPlainShare(a, b *consEntry) float64 {
	if len(a.words)+len(b.words) == 0 {
		return 0
	}
	n := 0
	for w := range a.words {
		if b.words[w] {
			n++
		}
	}
	return 2 * float64(n) / float64(len(a.words)+len(b.words))
}

// consSharesWord reports whether a and b write a normalised word in common: a
// fact about the same subject does.
func consSharesWord(a, b *consEntry) bool {
	for w := range a.words {
		if b.words[w] {
			return true
		}
	}
	return false
}

func consQuoteWords(ws []string) string {
	if len(ws) == 0 {
		return ""
	}
	const most = 8
	q := make([]string, 0, min(len(ws), most))
	for i, w := range ws {
		if i == most {
			q = append(q, fmt.Sprintf("and %d more", len(ws)-most))
			break
		}
		q = append(q, fmt.Sprintf("%q", w))
	}
	return ": " + strings.Join(q, ", ")
}

func consSortedInts[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

// mergeInto appends a MERGE version of into's item that keeps into's content
// (redacted again) and supersedes from's version. It returns the new head.
func (e *Service) mergeInto(ctx context.Context, tx memgov.Tx, red *redact.Redactor, into, from *consEntry, tags []string, conf float64, actor, reason string) (string, error) {
	content := into.v.Content
	if !red.Empty() {
		c, err := red.JSON(content)
		if err != nil {
			return "", err
		}
		if content, err = canon.Canonicalize(c); err != nil {
			return "", err
		}
		for i, t := range tags {
			tags[i] = red.String(t)
		}
	}
	entry := &oplog.Entry{Time: e.now(), Op: oplog.Merge, MemoryRef: into.v.MemoryRef, ItemID: into.v.ItemID, VersionID: oplog.NewID(),
		PrevVersionID: into.v.ID, Actor: actor}
	vs := into.v.ValidationScore
	p := oplog.Payload{Reason: reason, Key: into.v.Key, Layer: string(into.v.Layer), Content: content, ContentHash: oplog.HashPayload(content),
		Tags: normTags(tags), Confidence: &conf, ValidationScore: &vs, Classification: into.v.Classification, MergedFrom: from.v.ID}
	if into.v.ExpiresAt != nil {
		p.ExpiresAt = into.v.ExpiresAt.UTC().Format(oplog.TimeFormat)
	}
	if err := oplog.Append(ctx, tx, entry, p); err != nil {
		return "", err
	}
	into.v.Content = content
	into.v.Tags = p.Tags
	return entry.VersionID, nil
}

func clamp01(f float64) float64 { return math.Max(0, math.Min(1, f)) }
