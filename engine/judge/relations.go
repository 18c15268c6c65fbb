package judge

import (
	"bufio"
	_ "embed"
	"fmt"
	"sort"
	"strings"
)

// The relation table (relations.tsv) names the relations the judge reads
// by name, with their cardinality and the surface forms that state them;
// a new relation is one row.
//
//go:embed relations.tsv
var relationsTable string

// A Relation is one row of the relation table.
type Relation struct {
	Name        string
	Cardinality Cardinality
	// Values names the word class a verb form's value must end in ("" for
	// any value): "plays tennis" states a sport, "plays the piano" does not.
	Values string
	// Once: the value is fixed once and for all (where one was born, a
	// product's country of origin): a past and a present statement of it
	// state the same fact.
	Once  bool
	Verbs []string // "born in", "headquartered in", "airs on"
	Nouns []string // "birthplace", "head of state", "official language"
}

type verbForm struct {
	toks []string
	rel  *Relation
}

var (
	relationRows []Relation
	nounRelation = map[string]string{} // noun form -> relation name
	onceRelation = map[string]bool{}   // relations whose value is fixed once
	tableVerbs   []verbForm            // longest first
)

func init() {
	rows, err := parseRelations(relationsTable)
	if err != nil {
		panic("judge: relations.tsv: " + err.Error())
	}
	relationRows = rows
	for i := range relationRows {
		r := &relationRows[i]
		if _, ok := DefaultCardinality[r.Name]; !ok {
			DefaultCardinality[r.Name] = r.Cardinality
		}
		for _, n := range r.Nouns {
			nounRelation[n] = r.Name
		}
		if r.Once {
			onceRelation[r.Name] = true
			if r.Name == "born place" {
				onceRelation["born date"] = true
			}
			if r.Name == "died in" {
				onceRelation["died date"] = true
			}
		}
		for _, v := range r.Verbs {
			tableVerbs = append(tableVerbs, verbForm{toks: strings.Fields(v), rel: r})
		}
	}
	sort.SliceStable(tableVerbs, func(a, b int) bool { return len(tableVerbs[a].toks) > len(tableVerbs[b].toks) })
}

// Relations returns the rows of the relation table, in file order.
func Relations() []Relation { return append([]Relation(nil), relationRows...) }

func parseRelations(text string) ([]Relation, error) {
	var out []Relation
	seen := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("line %d: want 4 tab-separated columns (name, cardinality, values, forms), got %d", n, len(f))
		}
		r := Relation{Name: strings.TrimSpace(f[0])}
		switch strings.TrimSpace(f[1]) {
		case "single":
			r.Cardinality = Single
		case "once":
			r.Cardinality, r.Once = Single, true
		case "multi":
			r.Cardinality = Multi
		default:
			return nil, fmt.Errorf("line %d: cardinality %q is not single, once or multi", n, f[1])
		}
		if v := strings.TrimSpace(f[2]); v != "-" {
			r.Values = v
		}
		for _, form := range strings.Split(f[3], ",") {
			form = strings.TrimSpace(form)
			kind, phrase, ok := strings.Cut(form, ":")
			phrase = strings.ToLower(strings.TrimSpace(phrase))
			if !ok || phrase == "" {
				return nil, fmt.Errorf("line %d: form %q is not v:PHRASE or n:NOUN", n, form)
			}
			key := kind + ":" + phrase
			if seen[key] {
				return nil, fmt.Errorf("line %d: form %q is listed twice", n, form)
			}
			seen[key] = true
			switch kind {
			case "v":
				r.Verbs = append(r.Verbs, phrase)
			case "n":
				r.Nouns = append(r.Nouns, phrase)
			default:
				return nil, fmt.Errorf("line %d: form %q is not v:PHRASE or n:NOUN", n, form)
			}
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// tableRelation reads a sentence that states a relation of the table by
// one of its verb forms ("X was born in Y", "X, headquartered in Y, ...",
// "Doctor Who is broadcast by BBC One") or an appositive noun form ("Y,
// the CEO of X, ...").
func tableRelation(ts []token) (Claim, bool) {
	for _, vf := range tableVerbs {
		k := phraseAt(ts, vf.toks)
		if k < 1 {
			continue
		}
		if c, ok := verbClaim(ts, k, vf); ok {
			return c, true
		}
	}
	return appositiveNoun(ts)
}

// phraseAt returns where words first occur in ts, or -1.
func phraseAt(ts []token, words []string) int {
	for k := 0; k+len(words) <= len(ts); k++ {
		match := true
		for i, w := range words {
			if ts[k+i].low != w {
				match = false
				break
			}
		}
		if match {
			return k
		}
	}
	return -1
}

func verbClaim(ts []token, k int, vf verbForm) (Claim, bool) {
	left, rest := ts[:k], ts[k+len(vf.toks):]
	negated := false
	appositive := false
	// Auxiliaries, copulas, negation and fillers between subject and verb:
	// "was born in", "is not headquartered in", "has always played"; a
	// comma before the form makes it an appositive ("Samsung,
	// headquartered in Suwon, makes phones").
trim:
	for len(left) > 0 {
		w := left[len(left)-1].low
		switch {
		case negators[w]:
			negated = true
		case isCopula(w) || isAuxiliary(w) || fillerWords[w] || w == "been" || w == "being":
		case w == ",":
			appositive = true
			left = left[:len(left)-1]
			break trim
		default:
			break trim
		}
		left = left[:len(left)-1]
	}
	if !appositive {
		for i := len(left) - 1; i >= 0; i-- {
			if (left[i].low == "," || left[i].low == ":") && i+1 < len(left) {
				left = left[i+1:]
				break
			}
		}
	}
	// The value runs to a comma, a clause or the end.
	end := len(rest)
	for i, t := range rest {
		if t.low == "," || cutWords[t.low] || t.low == "(" {
			end = i
			break
		}
	}
	value := rest[:end]
	subj := cleanPhrase(left)
	if len(subj) == 0 || len(subj) > 8 || len(value) == 0 || len(value) > 8 {
		return Claim{}, false
	}
	for _, t := range subj {
		if isCopula(t.low) || relVerbs[t.low] != "" && t.low != subj[0].low {
			// Another verb before the form: the form is not this
			// sentence's main relation ("the team that Ana coaches ...").
			return Claim{}, false
		}
	}
	v := parseValue(value)
	if vf.rel.Values != "" {
		if v.Kind != KindText || len(v.Lows) == 0 || !(inClass(vf.rel.Values, v.Lows[len(v.Lows)-1]) || inClass(vf.rel.Values, strings.Join(v.Lows, " "))) {
			return Claim{}, false
		}
	}
	return finish(Claim{Subject: subjectKey(subj), Relation: vf.rel.Name, Value: v, Negated: negated, Text: joinTokens(ts)})
}

// appositiveNoun reads "Y, the NOUN of X, ..." (Y is X's NOUN).
func appositiveNoun(ts []token) (Claim, bool) {
	c1 := -1
	for i, t := range ts {
		if t.low == "," {
			c1 = i
			break
		}
	}
	if c1 < 1 || c1+3 >= len(ts) {
		return Claim{}, false
	}
	i := c1 + 1
	if isDeterminer(ts[i].low) {
		i++
	}
	rel, n := nounFormAt(ts[i:])
	if n == 0 || i+n >= len(ts) || ts[i+n].low != "of" {
		return Claim{}, false
	}
	j := i + n + 1
	end := j
	for end < len(ts) && ts[end].low != "," {
		end++
	}
	if end == len(ts) || end == j {
		// Not closed by a comma: "Ana, the CEO of Acme" ends the sentence
		// or runs on; read only the closed appositive.
		return Claim{}, false
	}
	owner := cleanPhrase(ts[j:end])
	val := cleanPhrase(ts[:c1])
	if len(owner) == 0 || len(owner) > 6 || len(val) == 0 || len(val) > 6 {
		return Claim{}, false
	}
	return finish(Claim{Subject: subjectKey(owner), Relation: rel, Value: parseValue(val), Text: joinTokens(ts)})
}

// nounFormAt returns the relation whose longest noun form opens ts, and how
// many tokens it takes.
func nounFormAt(ts []token) (string, int) {
	best, n := "", 0
	for k := 1; k <= 4 && k <= len(ts); k++ {
		if r, ok := nounRelation[joinLow(ts[:k])]; ok {
			best, n = r, k
		}
	}
	return best, n
}
