package judge

import (
	"fmt"
	"strings"
)

// Evidence is how well an excerpt supports a claim.
type Evidence struct {
	// Score is in [0,1]: 1 when the excerpt states the claim's values and
	// key terms, 0 when it states none of them or contradicts the claim.
	Score float64
	// Contradicts is true when the excerpt states another value for the
	// claim's relation (or denies the claim).
	Contradicts bool
	// Explanation says what was found and what was missing.
	Explanation string
}

// Support scores how well excerpt supports claimText with the default
// Judge.
func Support(claimText, excerpt string) Evidence { return defaultJudge.Support(claimText, excerpt) }

// Support scores how well excerpt supports claimText: the share of the
// claim's values (numbers, dates, amounts, names, the object of each
// relation) and of its key terms that the excerpt states, values weighing
// more. An excerpt that contradicts the claim (another value for a
// single-valued relation, a conflicting number or date, a denial) scores 0
// and is reported as contradicting.
func (j *Judge) Support(claimText, excerpt string) Evidence {
	if strings.TrimSpace(claimText) == "" || strings.TrimSpace(excerpt) == "" {
		return Evidence{Explanation: "empty claim or excerpt"}
	}
	if v := j.claimContradiction(claimText, excerpt); v.Contradicts {
		return Evidence{Contradicts: true, Explanation: "excerpt contradicts the claim: " + v.Explanation}
	}
	lex := j.lex
	have := map[string]bool{}
	for _, w := range normTokens(excerpt, lex) {
		have[w] = true
	}
	terms := uniqueStrings(normTokens(claimText, lex))
	found := 0
	var missing []string
	for _, w := range terms {
		if have[w] {
			found++
		} else {
			missing = append(missing, w)
		}
	}
	termScore := 0.0
	if len(terms) > 0 {
		termScore = float64(found) / float64(len(terms))
	}
	// Values: quantities must appear as quantities; text values by words.
	exq := map[string]bool{}
	for _, q := range quantities(excerpt) {
		exq[quantityKey(q)] = true
	}
	valueScore, nv := 0.0, 0
	for _, c := range Extract(claimText) {
		nv++
		if c.Value.Kind != KindText {
			if exq[quantityKey(c.Value)] {
				valueScore++
			}
			continue
		}
		ws := normTokens(c.Value.Text, lex)
		if len(ws) == 0 {
			valueScore++
			continue
		}
		n := 0
		for _, w := range ws {
			if have[w] {
				n++
			}
		}
		valueScore += float64(n) / float64(len(ws))
	}
	// Quantities in claims no pattern read still count.
	for _, q := range quantities(claimText) {
		nv++
		if exq[quantityKey(q)] {
			valueScore++
		}
	}
	score := termScore
	if nv > 0 {
		score = 0.4*termScore + 0.6*valueScore/float64(nv)
	}
	if score > 1 {
		score = 1
	}
	exp := fmt.Sprintf("%d of %d key terms found", found, len(terms))
	if len(missing) > 0 {
		exp += "; missing: " + strings.Join(missing, ", ")
	}
	return Evidence{Score: score, Explanation: exp}
}

// claimContradiction applies the claim-level rules only: an excerpt is
// prose, and the scene rules are for one-sentence descriptions.
func (j *Judge) claimContradiction(claimText, excerpt string) Verdict {
	ca, cb := Extract(claimText), Extract(excerpt)
	best := Verdict{}
	for i := range ca {
		for k := range cb {
			v := j.compareClaims(&ca[i], &cb[k])
			if v.Contradicts && v.Confidence > best.Confidence {
				best = v
			}
		}
	}
	return best
}

func quantityKey(v Value) string {
	switch v.Kind {
	case KindMoney:
		return "m" + formatNum(v.Num) + v.Unit
	case KindPercent, KindNumber:
		return "n" + formatNum(v.Num)
	}
	return "d" + v.Text
}

func uniqueStrings(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
