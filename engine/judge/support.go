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
	// Missing are the claim's key terms the excerpt does not state: an
	// excerpt that leaves part of a claim unstated supports it partially
	// at most.
	Missing []string
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
	wc, we := normTokens(claimText, lex), normTokens(excerpt, lex)
	if why, ok := restates(claimText, excerpt, wc, we, lex); ok {
		return Evidence{Contradicts: true, Explanation: "excerpt contradicts the claim: " + why}
	}
	have := wordSet(we)
	terms := uniqueStrings(wc)
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
		score = min(0.4*termScore+0.6*valueScore/float64(nv), termScore)
	}
	if score > 1 {
		score = 1
	}
	exp := fmt.Sprintf("%d of %d key terms found", found, len(terms))
	if len(missing) > 0 {
		exp += "; missing: " + strings.Join(missing, ", ")
	}
	return Evidence{Score: score, Explanation: exp, Missing: missing}
}

// maxGapWords is the longest run of excerpt words read as standing in for
// a claim word.
const maxGapWords = 3

// restates finds an excerpt that states the claim with something else in
// its place (wc and we are their normalised words): the claim denied (the excerpt affirms what the claim negates,
// or the reverse, all else stated), or, between words both share, the
// antonym of a claim word in its place ("the users are awake at the demo" /
// "the users are asleep at the demo"). Another name in a word's place is
// not a contradiction by itself ("Grace speaks French" does not deny
// "Grace speaks Spanish"); it leaves the claim unsupported. It returns
// what differs.
func restates(claimText, excerpt string, wc, we []string, lex *Lexicon) (string, bool) {
	have := wordSet(we)
	stated := 0
	for _, w := range wc {
		if have[w] || w == "not" {
			stated++
		}
	}
	if len(wc) > 0 && stated == len(wc) && negations(claimText)%2 != negations(excerpt)%2 && (negations(claimText) == 0 || negations(excerpt) == 0) {
		return "one of them is negated and the other is not", true
	}
	if len(we) > maxAlignWords {
		we = we[:maxAlignWords]
	}
	for _, g := range gaps(wc, we) {
		if len(g.b) == 0 || len(g.b) > maxGapWords || len(g.a) == 0 || len(g.a) > maxGapWords || !g.anchored {
			continue
		}
		for _, x := range g.a {
			for _, y := range g.b {
				if x == y {
					continue
				}
				if lex.StateAntonyms(x, y) {
					return fmt.Sprintf("the excerpt says %q where the claim says %q", y, x), true
				}
			}
		}
	}
	return "", false
}

// gap is a place where an alignment of two word lists leaves words of
// either unmatched; anchored when a matched word precedes it.
type gap struct {
	a, b     []string
	anchored bool
}

// gaps aligns a and b on a longest common subsequence and returns the
// places where they differ.
func gaps(a, b []string) []gap {
	n, m := len(a), len(b)
	l := make([][]int32, n+1)
	for i := range l {
		l[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var out []gap
	cur := gap{}
	flush := func() {
		if len(cur.a) > 0 || len(cur.b) > 0 {
			out = append(out, cur)
		}
		cur = gap{anchored: true}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			flush()
			i++
			j++
		case l[i+1][j] >= l[i][j+1]:
			cur.a = append(cur.a, a[i])
			i++
		default:
			cur.b = append(cur.b, b[j])
			j++
		}
	}
	cur.a = append(cur.a, a[i:]...)
	cur.b = append(cur.b, b[j:]...)
	flush()
	return out
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
