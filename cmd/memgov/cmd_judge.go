package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/judge"
)

// judgeStep is one rule of `memgov judge`'s chain.
type judgeStep struct {
	Rule   string   `json:"rule"`
	Family string   `json:"family"`
	Doc    string   `json:"doc"`
	Words  []string `json:"words,omitempty"`
	// Role says what the rule did: "fired" (a difference rule found a
	// difference), "decided" (the rule that decided the verdict).
	Role string `json:"role"`
	// Explanation says what it read, for a person.
	Explanation string `json:"explanation,omitempty"`
}

// judgeReport is what `memgov judge` prints.
type judgeReport struct {
	Stored string `json:"stored"`
	Write  string `json:"write"`
	Layer  string `json:"layer"`
	// Verdict is what the write would end as at these gates: REJECTED,
	// MERGED, COMMITTED (with Linked set when kept beside the stored text),
	// DEFERRED (for a person), or the contradiction gate's outcome.
	Verdict string `json:"verdict"`
	Reason  string `json:"reason,omitempty"`
	Gate    string `json:"gate,omitempty"`
	Detail  string `json:"detail,omitempty"`
	Linked  bool   `json:"linked,omitempty"`
	// Rule is the rule that decided, RuleWords the words that fired it.
	Rule      string   `json:"rule,omitempty"`
	RuleWords []string `json:"rule_words,omitempty"`
	// Chain lists every difference rule that fires on the pair, then the
	// rule that decided.
	Chain []judgeStep `json:"chain"`
	// Similarity is the tier-3 cosine of the two texts; Contradiction the
	// contradiction rules' verdict on the pair.
	Similarity    float64 `json:"similarity"`
	Contradiction string  `json:"contradiction,omitempty"`
	// Near reports whether the dedup gate read the texts as near.
	Near bool `json:"near"`
}

func (a *app) judgeCommand() *cobra.Command {
	var (
		layer  string
		asJSON bool
		rules  bool
	)
	cmd := &cobra.Command{
		Use:   "judge STORED WRITE",
		Short: "Show how the judge rules a write against a stored text, rule by rule",
		Long: `judge prints the verdict of the text WRITE against the stored text STORED as
the write pipeline's contradiction and dedup gates would judge it: the stored
text ACTIVE in the memoryRef, the write sent to the same layer (--layer, default
SEMANTIC) under the effective policy (the built-in defaults, or --policy), with
no model. It prints the verdict, the rule that decided it and the words that
fired it, and the chain: every difference rule that fires on the pair, then the
deciding rule. Nothing is written; no database is needed.

A write is REJECTED as a duplicate only when it states the same claims as the
stored text, and MERGED only when it keeps every word of it in the same roles
and adds to it; one that differs is kept: COMMITTED as its own item linked
NEAR_DUPLICATE (EPISODIC, or texts near only by their words), or DEFERRED to a
person (SEMANTIC, PROCEDURAL). EPISODIC memory records events: there the same
words again, or more of them, are a later episode, COMMITTED linked to the
stored one (rules repeats-event, extends-event), never REJECTED or MERGED.
--rules lists every rule with what it reads.`,
		Example: `  memgov judge "Priya is the sister of Dev and the cousin of Anil." "Priya is the sister of Anil and the cousin of Dev." --layer EPISODIC
  memgov judge "Dana's manager is Priya." "Priya is Dana's manager." --json
  memgov judge --rules`,
		Args: func(cmd *cobra.Command, args []string) error {
			if rules {
				return cobra.NoArgs(cmd, args)
			}
			if len(args) != 2 {
				return fmt.Errorf("give the stored text and the write, e.g. memgov judge \"Acme acquired Globex.\" \"Globex acquired Acme.\" (or --rules)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if rules {
				return a.printRules(asJSON)
			}
			if strings.TrimSpace(args[0]) == "" || strings.TrimSpace(args[1]) == "" {
				return usagef("both texts must be non-empty")
			}
			l := memgov.Layer(strings.ToUpper(layer))
			if !l.Durable() {
				return usagef("--layer must be a durable layer (EPISODIC, SEMANTIC or PROCEDURAL), not %q: the dedup gate judges only those", layer)
			}
			pol, _, err := a.loadPolicy()
			if err != nil {
				return err
			}
			j, err := gate.JudgePair(cmd.Context(), &pol, l, args[0], args[1])
			if err != nil {
				return err
			}
			rep := judgeReportOf(args[0], args[1], l, j)
			if asJSON {
				return a.printJSON(rep)
			}
			verdict := rep.Verdict
			if rep.Reason != "" {
				verdict += " " + rep.Reason
			}
			if rep.Linked {
				verdict += ", linked NEAR_DUPLICATE to the stored text"
			}
			fmt.Fprintf(a.stdout, "verdict: %s (%s, similarity %.3f)\n", verdict, rep.Layer, rep.Similarity)
			if rep.Rule != "" {
				fmt.Fprintf(a.stdout, "rule:    %s%s\n", rep.Rule, wordsSuffix(rep.RuleWords))
			}
			if rep.Detail != "" {
				fmt.Fprintf(a.stdout, "detail:  %s\n", rep.Detail)
			}
			fmt.Fprintln(a.stdout, "chain:")
			if len(rep.Chain) == 0 {
				fmt.Fprintln(a.stdout, "  (no rule fired: the texts are not near)")
			}
			for i, s := range rep.Chain {
				fmt.Fprintf(a.stdout, "  %d. %-8s %s (%s)%s\n", i+1, s.Role, s.Rule, s.Family, wordsSuffix(s.Words))
				fmt.Fprintf(a.stdout, "     %s\n", s.Doc)
				if s.Explanation != "" && s.Explanation != s.Doc {
					fmt.Fprintf(a.stdout, "     read: %s\n", s.Explanation)
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&layer, "layer", string(memgov.Semantic), "the durable `LAYER` both texts are in (EPISODIC, SEMANTIC or PROCEDURAL)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&rules, "rules", false, "list the judge's rules (name, family, what each reads) instead")
	return cmd
}

func wordsSuffix(ws []string) string {
	if len(ws) == 0 {
		return ""
	}
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = fmt.Sprintf("%q", w)
	}
	return ": " + strings.Join(q, ", ")
}

// judgeReportOf reads the two gates' results into the report.
func judgeReportOf(stored, write string, l memgov.Layer, j gate.PairJudgement) judgeReport {
	rep := judgeReport{Stored: stored, Write: write, Layer: string(l), Similarity: round3(j.Cosine)}
	if j.Contradicts.Contradicts {
		rep.Contradiction = j.Contradicts.Rule + ": " + j.Contradicts.Explanation
	}
	step := func(name, role string, words []string, why string) judgeStep {
		r, _ := judge.LookupRule(name)
		return judgeStep{Rule: name, Family: r.Family, Doc: r.Doc, Role: role, Words: words, Explanation: why}
	}
	for _, d := range judge.Explain(stored, write) {
		rep.Chain = append(rep.Chain, step(d.Rule, "fired", d.Words(), d.Explanation))
	}
	ct := j.Contradiction
	if ct.Reason == gate.ReasonContradiction {
		rep.Gate, rep.Reason, rep.Detail = gate.NameContradiction, ct.Reason, ct.Detail
		rep.Verdict = memgov.StatusDeferred
		if ct.Verdict == gate.Reject {
			rep.Verdict = memgov.StatusRejected
		}
		rep.Rule = j.Contradicts.Rule
		rep.Chain = append(rep.Chain, step(j.Contradicts.Rule, "decided", nil, j.Contradicts.Explanation))
		return rep
	}
	dd := j.Dedup
	rep.Rule, rep.RuleWords, rep.Detail = dd.Rule, dd.RuleWords, dd.Detail
	rep.Near = dd.Rule != ""
	switch {
	case dd.Verdict == gate.Reject:
		rep.Verdict, rep.Reason, rep.Gate = memgov.StatusRejected, dd.Reason, gate.NameDedup
	case dd.Verdict == gate.Merge:
		rep.Verdict, rep.Reason, rep.Gate = memgov.StatusMerged, dd.Reason, gate.NameDedup
	case dd.Verdict == gate.Defer:
		rep.Verdict, rep.Reason, rep.Gate = memgov.StatusDeferred, dd.Reason, gate.NameDedup
	default:
		rep.Verdict, rep.Linked = memgov.StatusCommitted, len(dd.Links) > 0
		if rep.Linked {
			rep.Gate = gate.NameDedup
		}
	}
	if dd.Rule != "" {
		// The deciding rule closes the chain; a difference rule that
		// decided is already in it.
		last := len(rep.Chain) - 1
		if last >= 0 && rep.Chain[last].Rule == dd.Rule || containsRule(rep.Chain, dd.Rule) {
			for i := range rep.Chain {
				if rep.Chain[i].Rule == dd.Rule {
					rep.Chain[i].Role = "decided"
				}
			}
		} else {
			if dd.After != "" && !containsRule(rep.Chain, dd.After) {
				// The rule that read the texts as the same claims (or
				// as saying more), which an event layer answers with a
				// link.
				rep.Chain = append(rep.Chain, step(dd.After, "fired", dd.RuleWords, j.Delta.String()))
			}
			rep.Chain = append(rep.Chain, step(dd.Rule, "decided", dd.RuleWords, j.Delta.String()))
		}
	}
	return rep
}

func containsRule(ss []judgeStep, rule string) bool {
	for _, s := range ss {
		if s.Rule == rule {
			return true
		}
	}
	return false
}

// printRules lists the rule table.
func (a *app) printRules(asJSON bool) error {
	type row struct {
		Name   string `json:"name"`
		Family string `json:"family"`
		Doc    string `json:"doc"`
	}
	var rows []row
	for _, r := range judge.RuleTable() {
		rows = append(rows, row{r.Name, r.Family, r.Doc})
	}
	if asJSON {
		return a.printJSON(rows)
	}
	t := a.table("RULE", "FAMILY", "WHAT IT READS")
	for _, r := range rows {
		t.row(r.Name, r.Family, r.Doc)
	}
	t.flush()
	return nil
}

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }
