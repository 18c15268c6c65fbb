package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
)

// gateRecord is one labelled record of a judgement corpus
// (testdata/corpora/*.jsonl): a pair (a, b) for the contradiction and
// duplicate kinds, a text for the injection kind.
type gateRecord struct {
	Kind  string `json:"kind"`
	A     string `json:"a"`
	B     string `json:"b"`
	Text  string `json:"text"`
	Label string `json:"label"`
	// Layer, on an injection record, is the durable layer its text is
	// written to ("PROCEDURAL" for a procedure); empty is --layer.
	Layer string `json:"layer,omitempty"`
}

// confusion counts one gate's decisions against the labels.
type confusion struct {
	TP        int     `json:"tp"`
	FP        int     `json:"fp"`
	FN        int     `json:"fn"`
	TN        int     `json:"tn"`
	Recall    float64 `json:"recall"`
	Precision float64 `json:"precision"`
	// FPRate is FP / (FP + TN): the share of negatives flagged.
	FPRate float64 `json:"fp_rate"`
}

func (c *confusion) add(predicted, actual bool) {
	switch {
	case predicted && actual:
		c.TP++
	case predicted:
		c.FP++
	case actual:
		c.FN++
	default:
		c.TN++
	}
}

func (c *confusion) finish() {
	if c.TP+c.FN > 0 {
		c.Recall = float64(c.TP) / float64(c.TP+c.FN)
	}
	if c.TP+c.FP > 0 {
		c.Precision = float64(c.TP) / float64(c.TP+c.FP)
	}
	if c.FP+c.TN > 0 {
		c.FPRate = float64(c.FP) / float64(c.FP+c.TN)
	}
}

// benchGatesReport is what `memgov bench gates` prints.
type benchGatesReport struct {
	Corpus  string `json:"corpus"`
	Records int    `json:"records"`
	Model   string `json:"model,omitempty"`
	// Gates holds a confusion matrix per measured decision: contradiction
	// (the second text of a pair flagged CONTRADICTION), duplicate (the
	// second text discarded or merged as a duplicate), duplicate_flagged (the
	// same, or sent to a person as a near-duplicate), injection (REJECTED by
	// the content policy), injection_flagged (the same, or held for a person
	// with INSTRUCTION_IN_MEMORY), evidence_contradicts (a write whose evidence
	// excerpt is the other text of a pair routed to review for it).
	Gates map[string]*confusion `json:"gates"`
	// DistinctDiscarded is the share of distinct pairs whose second text
	// was REJECTED as a duplicate (facts lost); DistinctMerged the share
	// merged into the first; DistinctLinked the share committed as their
	// own item linked NEAR_DUPLICATE to the first.
	DistinctDiscarded float64 `json:"distinct_discarded,omitempty"`
	DistinctMerged    float64 `json:"distinct_merged,omitempty"`
	DistinctLinked    float64 `json:"distinct_linked,omitempty"`
	// DuplicateFound is the share of duplicate pairs whose second text was
	// REJECTED or MERGED as a duplicate, linked NEAR_DUPLICATE to the first,
	// or sent to a person as a near-duplicate.
	DuplicateFound float64 `json:"duplicate_found,omitempty"`
	// ByRule counts, per judge rule that decided a pair's second write,
	// its outcomes per label ("distinct": {"MERGED": 1, ...}).
	ByRule map[string]map[string]map[string]int `json:"by_rule,omitempty"`
	// ContradictedEvidenceCommitted counts writes whose evidence excerpt
	// states another value and that committed anyway (must be 0).
	ContradictedEvidenceCommitted *int `json:"contradicted_evidence_committed,omitempty"`
	// Outcomes counts the statuses and reasons of the measured writes, and
	// ByLabel the same per record label.
	Outcomes map[string]int            `json:"outcomes"`
	ByLabel  map[string]map[string]int `json:"by_label"`
	// SetupFailed counts pairs whose first text did not enter memory.
	SetupFailed int `json:"setup_failed"`
}

func (a *app) benchGatesCommand() *cobra.Command {
	var (
		corpus, dir, trace, layer, role string
		asJSON                          bool
	)
	cmd := &cobra.Command{
		Use:   "gates",
		Short: "Measure the semantic gates on a labelled corpus through the write pipeline",
		Long: `bench gates reads a labelled JSON-lines corpus (the format of
testdata/corpora/*.jsonl: {"kind":"contradiction"|"duplicate","a","b","label"} pairs
and {"kind":"injection","text","label"} texts) and drives each record through the
real write pipeline (governed writes with plain {"text": ...} content, as agents
send them) on a scratch database, then prints recall, precision and the confusion
counts per gate.

Each pair gets a memoryRef of its own: its first text is written to the SEMANTIC
layer (--layer), then its second, whose outcome is the prediction. A pair is a contradiction
when the second write is refused or sent to review with reason CONTRADICTION; a
duplicate when it is REJECTED or MERGED as one (duplicate), or also sent to a
person as a near-duplicate or committed linked NEAR_DUPLICATE to the first
(duplicate_flagged); in EPISODIC memory a repeat is linked, never REJECTED or MERGED,
so read duplicate_flagged there. --trace writes each record's outcome with the judge rule
that decided it and the words that fired it; --json adds the outcomes per rule
(by_rule). Each contradiction pair is also
written once with the first text as its evidence excerpt (evidence_contradicts).
The evidence writes go to the EPISODIC layer, where the default writer's role
(--role orchestrator) needs no approval. An injection is a write REJECTED by the content policy
(injection), or that or one held for a person as an order to act in a layer that
states facts, reason INSTRUCTION_IN_MEMORY (injection_flagged). An injection record
with a "layer" field is written to that layer (a procedure to PROCEDURAL), else to --layer. Burst and rate limits are
lifted; everything else is the effective policy (--policy), including any model
it configures.`,
		Example: "  memgov bench gates --corpus testdata/corpora/contradiction.jsonl\n  memgov bench gates --corpus testdata/corpora/duplicate.jsonl --layer EPISODIC --role executor\n  memgov bench gates --corpus testdata/corpora/injection.jsonl --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if corpus == "" {
				return usagef("--corpus is required")
			}
			recs, err := readGateCorpus(corpus)
			if err != nil {
				return err
			}
			pol, _, err := a.loadPolicy()
			if err != nil {
				return err
			}
			var tw *json.Encoder
			if trace != "" {
				f, err := os.Create(trace)
				if err != nil {
					return fmt.Errorf("trace: %w", err)
				}
				defer f.Close()
				tw = json.NewEncoder(f)
			}
			pairLayer := memgov.Layer(strings.ToUpper(layer))
			if !pairLayer.Durable() {
				return usagef("--layer must be a durable layer (EPISODIC, SEMANTIC or PROCEDURAL), not %q", layer)
			}
			writer, err := memgov.ParseRole(role)
			if err != nil {
				return usagef("--role: %v", err)
			}
			rep, err := benchGates(cmd.Context(), dir, pol, recs, pairLayer, writer, tw)
			if err != nil {
				return err
			}
			rep.Corpus = corpus
			if asJSON {
				return a.printJSON(rep)
			}
			t := a.table("GATE", "TP", "FP", "FN", "TN", "RECALL", "PRECISION", "FP RATE")
			names := make([]string, 0, len(rep.Gates))
			for n := range rep.Gates {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				c := rep.Gates[n]
				t.row(n, fmt.Sprint(c.TP), fmt.Sprint(c.FP), fmt.Sprint(c.FN), fmt.Sprint(c.TN),
					fmt.Sprintf("%.3f", c.Recall), fmt.Sprintf("%.3f", c.Precision), fmt.Sprintf("%.3f", c.FPRate))
			}
			t.flush()
			fmt.Fprintf(a.stdout, "\n%d records", rep.Records)
			labels := make([]string, 0, len(rep.ByLabel))
			for l := range rep.ByLabel {
				labels = append(labels, l)
			}
			sort.Strings(labels)
			for _, l := range labels {
				fmt.Fprintf(a.stdout, " · %s: %s", l, countsOf(rep.ByLabel[l]))
			}
			if _, ok := rep.Gates["duplicate"]; ok {
				fmt.Fprintf(a.stdout, " · distinct pairs discarded %.3f, merged %.3f, linked %.3f · duplicate pairs found %.3f",
					rep.DistinctDiscarded, rep.DistinctMerged, rep.DistinctLinked, rep.DuplicateFound)
			}
			if rep.ContradictedEvidenceCommitted != nil {
				fmt.Fprintf(a.stdout, " · contradicted evidence committed %d", *rep.ContradictedEvidenceCommitted)
			}
			if rep.SetupFailed > 0 {
				fmt.Fprintf(a.stdout, " · setup failed %d", rep.SetupFailed)
			}
			fmt.Fprintln(a.stdout)
			return nil
		},
	}
	cmd.Flags().StringVar(&corpus, "corpus", "", "labelled JSON-lines corpus `FILE`")
	cmd.Flags().StringVar(&dir, "dir", "", "where to put the scratch database (default: a temporary directory)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&layer, "layer", string(memgov.Semantic), "the durable `LAYER` pairs are written to (EPISODIC, SEMANTIC or PROCEDURAL)")
	cmd.Flags().StringVar(&trace, "trace", "", "write each record's outcome to `FILE` as JSON lines")
	cmd.Flags().StringVar(&role, "role", string(memgov.Orchestrator), "the `ROLE` of the writing agent: with executor, first texts wait for a curator as drafts")
	return cmd
}

// readGateCorpus reads and checks a labelled corpus.
func readGateCorpus(path string) ([]gateRecord, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	defer f.Close()
	var out []gateRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var r gateRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return nil, fmt.Errorf("corpus %s line %d: %w", path, n, err)
		}
		switch r.Kind {
		case "contradiction", "duplicate":
			if r.A == "" || r.B == "" {
				return nil, fmt.Errorf("corpus %s line %d: a %s record needs a and b", path, n, r.Kind)
			}
		case "injection":
			if r.Text == "" {
				return nil, fmt.Errorf("corpus %s line %d: an injection record needs text", path, n)
			}
			if r.Layer != "" && !memgov.Layer(strings.ToUpper(r.Layer)).Durable() {
				return nil, fmt.Errorf("corpus %s line %d: layer must be a durable layer (EPISODIC, SEMANTIC or PROCEDURAL), not %q", path, n, r.Layer)
			}
		default:
			return nil, fmt.Errorf("corpus %s line %d: unknown kind %q (contradiction, duplicate or injection)", path, n, r.Kind)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("corpus %s: %w", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("corpus %s: no records", path)
	}
	return out, nil
}

// gateTrace is one line of --trace: a record and what its measured writes
// returned.
type gateTrace struct {
	Record   int           `json:"record"`
	Kind     string        `json:"kind"`
	Label    string        `json:"label"`
	A        string        `json:"a,omitempty"`
	B        string        `json:"b,omitempty"`
	Text     string        `json:"text,omitempty"`
	Outcome  traceOutcome  `json:"outcome"`
	Evidence *traceOutcome `json:"evidence,omitempty"`
}

type traceOutcome struct {
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	Detail string `json:"detail,omitempty"`
	// Rule names the judge rule that decided (a row of `memgov judge
	// --rules`), RuleWords the words that fired it, and Linked the keys
	// of the near-duplicates a committed write was linked to.
	Rule      string   `json:"rule,omitempty"`
	RuleWords []string `json:"rule_words,omitempty"`
	Linked    []string `json:"linked,omitempty"`
}

func outcomeOf(r memgov.WriteResult) traceOutcome {
	o := traceOutcome{Status: r.Status, Reason: r.Reason, Detail: r.Detail, Rule: r.Rule, RuleWords: r.RuleWords}
	for _, l := range r.Links {
		o.Linked = append(o.Linked, l.Key)
	}
	return o
}

// observationFor is the observation type a bench write to layer carries:
// a verified tool result where the policy admits one, else the first type
// the layer admits (a task strategy in PROCEDURAL memory), so that what
// the gates judge is the text, not a type the layer refuses.
func observationFor(pol policy.Policy, layer memgov.Layer) string {
	const verified = "tool_result_verified"
	if pol.Admissible(string(layer), verified) {
		return verified
	}
	if allowed, ok := pol.WriteCriteria.Allowed.Get(string(layer)); ok {
		for _, t := range allowed {
			if t != "*" {
				return t
			}
		}
	}
	return verified
}

func benchGates(ctx context.Context, dir string, pol policy.Policy, recs []gateRecord, pairLayer memgov.Layer, role memgov.Role, trace *json.Encoder) (benchGatesReport, error) {
	emit := func(t gateTrace) error {
		if trace == nil {
			return nil
		}
		return trace.Encode(t)
	}
	rep := benchGatesReport{Records: len(recs), Gates: map[string]*confusion{}, Outcomes: map[string]int{}, ByLabel: map[string]map[string]int{},
		ByRule: map[string]map[string]map[string]int{}}
	byRule := func(label string, res memgov.WriteResult) {
		if res.Rule == "" {
			return
		}
		if rep.ByRule[res.Rule] == nil {
			rep.ByRule[res.Rule] = map[string]map[string]int{}
		}
		if rep.ByRule[res.Rule][label] == nil {
			rep.ByRule[res.Rule][label] = map[string]int{}
		}
		out := res.Status
		if len(res.Links) > 0 {
			out += " linked"
		}
		rep.ByRule[res.Rule][label][out]++
	}
	count := func(label string, res memgov.WriteResult) {
		o := res.Status + " " + res.Reason
		rep.Outcomes[o]++
		if rep.ByLabel[label] == nil {
			rep.ByLabel[label] = map[string]int{}
		}
		rep.ByLabel[label][o]++
	}
	s, done, err := openScratch(ctx, dir)
	if err != nil {
		return rep, err
	}
	defer done()
	pol.Reputation.BurstLimit = 0
	for _, lim := range []*policy.RateLimit{&pol.RateLimits.Layers.Working, &pol.RateLimits.Layers.Session,
		&pol.RateLimits.Layers.Episodic, &pol.RateLimits.Layers.Semantic, &pol.RateLimits.Layers.Procedural} {
		lim.Writes = 0
	}
	pol.RateLimits.SessionBudget = policy.PerRole[int]{}
	if pol.Models.Judge.Configured() {
		rep.Model = pol.Models.Judge.Model
	}
	e := engine.New(s, benchKey, append([]engine.Option{engine.WithPolicy(pol)}, modelOptions(pol)...)...)
	const agent = "bench-agent"
	if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: agent, Role: role, Tenant: "bench"}, "bench"); err != nil {
		return rep, err
	}
	conf := 0.9
	n := 0
	layer := pairLayer
	write := func(ref, text string, evidence oplog.EvidenceRef) (memgov.WriteResult, error) {
		c, err := json.Marshal(map[string]string{"text": text})
		if err != nil {
			return memgov.WriteResult{}, err
		}
		// Each write its own idempotency token: the same text recurs across
		// records, which are independent writes.
		n++
		return e.Writes().Write(ctx, memgov.WriteRequest{SourceAgentID: agent, MemoryRef: ref, TargetLayer: layer, IdempotencyToken: fmt.Sprintf("bench-%08d", n),
			Content: c, Confidence: &conf, ObservationType: observationFor(pol, layer), EvidenceRefs: []oplog.EvidenceRef{evidence}})
	}
	doc := oplog.EvidenceRef{SourceType: "DOCUMENT", SourceURI: "https://bench.example/source"}
	gateOf := func(name string) *confusion {
		if rep.Gates[name] == nil {
			rep.Gates[name] = &confusion{}
		}
		return rep.Gates[name]
	}
	distinct, discarded, merged, linked, evCommitted := 0, 0, 0, 0, 0
	duplicates, found := 0, 0
	evMeasured := false
	for i, r := range recs {
		ref := fmt.Sprintf("bench/%s/r%05d", agent, i)
		switch r.Kind {
		case "injection":
			if r.Layer != "" {
				layer = memgov.Layer(strings.ToUpper(r.Layer))
			}
			res, err := write(ref, r.Text, doc)
			layer = pairLayer
			if err != nil {
				return rep, fmt.Errorf("record %d: %w", i+1, err)
			}
			count(r.Label, res)
			if err := emit(gateTrace{Record: i + 1, Kind: r.Kind, Label: r.Label, Text: r.Text, Outcome: outcomeOf(res)}); err != nil {
				return rep, err
			}
			refused := res.Status == memgov.StatusRejected && res.Reason == gate.ReasonContentPolicy
			gateOf("injection").add(refused, r.Label == "injection")
			// Held for a person as an order to act in a layer that states
			// facts: caught, though not refused.
			held := res.Status == memgov.StatusDeferred && res.Reason == gate.ReasonInstructionInMemory
			gateOf("injection_flagged").add(refused || held, r.Label == "injection")
		case "contradiction", "duplicate":
			first, err := write(ref, r.A, doc)
			if err != nil {
				return rep, fmt.Errorf("record %d: %w", i+1, err)
			}
			if first.Status != memgov.StatusCommitted && first.Status != memgov.StatusDeferred {
				rep.SetupFailed++
			}
			res, err := write(ref, r.B, doc)
			if err != nil {
				return rep, fmt.Errorf("record %d: %w", i+1, err)
			}
			count(r.Label, res)
			if r.Kind == "contradiction" {
				gateOf("contradiction").add(res.Reason == gate.ReasonContradiction, r.Label == "contradiction")
				// The first text as the evidence excerpt of the second.
				ev := doc
				ev.Excerpt = r.A
				// EPISODIC, where the writer's role needs no approval: what
				// keeps such a write from committing is the evidence gate.
				layer = memgov.Episodic
				evRes, err := write(fmt.Sprintf("bench/%s/e%05d", agent, i), r.B, ev)
				layer = pairLayer
				if err != nil {
					return rep, fmt.Errorf("record %d: %w", i+1, err)
				}
				evMeasured = true
				ev2 := outcomeOf(evRes)
				if err := emit(gateTrace{Record: i + 1, Kind: r.Kind, Label: r.Label, A: r.A, B: r.B, Outcome: outcomeOf(res), Evidence: &ev2}); err != nil {
					return rep, err
				}
				flagged := evRes.Reason == gate.ReasonEvidenceContradicts
				gateOf("evidence_contradicts").add(flagged, r.Label == "contradiction")
				if r.Label == "contradiction" && evRes.Status == memgov.StatusCommitted {
					evCommitted++
				}
				break
			}
			if err := emit(gateTrace{Record: i + 1, Kind: r.Kind, Label: r.Label, A: r.A, B: r.B, Outcome: outcomeOf(res)}); err != nil {
				return rep, err
			}
			dupReasons := map[string]bool{gate.ReasonExactDuplicate: true, gate.ReasonStructuralDup: true, gate.ReasonSemanticDuplicate: true}
			conflictReasons := map[string]bool{gate.ReasonStructuralConflict: true, gate.ReasonSemanticConflict: true}
			isDup := r.Label == "duplicate"
			byRule(r.Label, res)
			caught := (res.Status == memgov.StatusRejected && dupReasons[res.Reason]) || res.Status == memgov.StatusMerged
			gateOf("duplicate").add(caught, isDup)
			flagged := caught || conflictReasons[res.Reason] || len(res.Links) > 0
			gateOf("duplicate_flagged").add(flagged, isDup)
			if isDup {
				duplicates++
				if flagged {
					found++
				}
			}
			if !isDup {
				if len(res.Links) > 0 {
					linked++
				}
				distinct++
				if res.Status == memgov.StatusRejected && dupReasons[res.Reason] {
					discarded++
				}
				if res.Status == memgov.StatusMerged {
					merged++
				}
			}
		}
	}
	if distinct > 0 {
		rep.DistinctDiscarded = float64(discarded) / float64(distinct)
		rep.DistinctMerged = float64(merged) / float64(distinct)
		rep.DistinctLinked = float64(linked) / float64(distinct)
	}
	if duplicates > 0 {
		rep.DuplicateFound = float64(found) / float64(duplicates)
	}
	if evMeasured {
		rep.ContradictedEvidenceCommitted = &evCommitted
	}
	for _, c := range rep.Gates {
		c.finish()
	}
	return rep, nil
}
