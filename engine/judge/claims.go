package judge

import (
	"strings"
	"sync"
)

// A Claim is one subject–relation–value statement read from text, the way
// agents write memory: "Dana's manager is Priya", "the capital of France is
// Paris", "Alice lives in Berlin", "the user does not eat meat".
type Claim struct {
	// Subject is the normalised subject: lower case, without articles or
	// possessive pronouns ("dana", "user", "staging database").
	Subject string
	// Relation is the canonical relation: an attribute noun ("manager",
	// "capital", "age"), a verb lemma with its particle ("live in",
	// "work at", "prefer"), or "is" for a plain copula.
	Relation string
	// Value is the normalised object.
	Value Value
	// Negated is true when the statement is denied ("not", "never",
	// "no longer", "n't").
	Negated bool
	// Text is the sentence the claim was read from.
	Text string
}

func (c Claim) String() string {
	neg := ""
	if c.Negated {
		neg = "NOT "
	}
	return neg + c.Subject + " | " + c.Relation + " | " + c.Value.Text
}

// relVerbs maps verb forms to the relation they state. A verb followed by a
// particle in particles gets the particle appended ("lives in" -> "live in").
var relVerbs = map[string]string{}

// relVerbLemmas are the relation verbs; their inflections are derived.
var relVerbLemmas = []string{
	"prefer", "like", "love", "enjoy", "hate", "dislike", "use", "live", "work", "speak", "visit",
	"drive", "own", "rent", "manage", "lead", "report", "weigh", "cost", "last", "open", "close",
	"depart", "leave", "start", "begin", "end", "run", "eat", "drink", "accept", "allow", "support",
	"require", "need", "want", "know", "play", "read", "attend", "follow", "include", "contain",
	"depend", "earn", "pay", "owe", "move", "marry", "study", "teach", "write", "wear", "sell", "buy",
	"acquire", "hire", "join", "belong", "pass", "fail", "succeed", "approve", "reject", "enable",
	"disable", "expire", "arrive", "happen", "take", "hold", "host", "win", "lose", "deny", "grant",
	"receive", "send", "forward", "block", "grow",
}

// verbForms are irregular past forms of relation verbs.
var verbForms = map[string]string{
	"grew": "grow", "grown": "grow", "lived": "live", "worked": "work", "spoke": "speak", "spoken": "speak", "drove": "drive",
	"driven": "drive", "led": "lead", "ran": "run", "began": "begin", "begun": "begin", "left": "leave",
	"ate": "eat", "eaten": "eat", "drank": "drink", "drunk": "drink", "knew": "know", "known": "know",
	"paid": "pay", "wrote": "write", "written": "write", "wore": "wear", "worn": "wear", "sold": "sell",
	"bought": "buy", "took": "take", "taken": "take", "held": "hold", "won": "win", "lost": "lose",
	"sent": "send", "has": "have", "had": "have", "have": "have",
}

func init() {
	for _, v := range relVerbLemmas {
		relVerbs[v] = v
		switch {
		case strings.HasSuffix(v, "y") && !strings.HasSuffix(v, "ay") && !strings.HasSuffix(v, "oy"):
			relVerbs[v[:len(v)-1]+"ies"] = v
			relVerbs[v[:len(v)-1]+"ied"] = v
		case strings.HasSuffix(v, "s") || strings.HasSuffix(v, "sh") || strings.HasSuffix(v, "ch"):
			relVerbs[v+"es"] = v
			relVerbs[v+"ed"] = v
		case strings.HasSuffix(v, "e"):
			relVerbs[v+"s"] = v
			relVerbs[v+"d"] = v
		default:
			relVerbs[v+"s"] = v
			relVerbs[v+"ed"] = v
		}
	}
	// Verbs whose final consonant doubles.
	for _, p := range [][2]string{{"preferred", "prefer"}, {"planned", "plan"}, {"stopped", "stop"}} {
		relVerbs[p[0]] = p[1]
	}
	for f, v := range verbForms {
		relVerbs[f] = v
	}
}

var particles = map[string]bool{"in": true, "at": true, "to": true, "on": true, "for": true, "from": true, "with": true, "by": true, "of": true, "as": true, "into": true}

// relationAlias folds relations that say the same thing.
var relationAlias = map[string]string{
	"work for": "work at", "work in": "work at", "employed by": "work at",
	"live at": "live in", "reside in": "live in", "based in": "live in", "move to": "live in",
	"located in": "located in", "love": "like", "enjoy": "like", "report": "report to",
	"born on": "born", "born in": "born", "marry": "married to", "married": "married to",
	"called": "name", "named": "name", "known as": "name", "leave at": "depart at", "depart": "depart at",
	"leave": "depart at", "open": "open at", "close": "close at", "start on": "start", "start at": "start",
	"begin": "start", "end on": "end", "end at": "end", "expire on": "end", "cost": "price",
	"price of": "price", "run on": "run on", "own": "own", "lead": "lead", "head": "lead",
	"owned by": "owner", "led by": "lead", "managed by": "manager", "written by": "author",
	"headquartered in": "headquarters", "married to": "married to", "held in": "located in", "held at": "located in", "founded in": "founded", "founded on": "founded",
	"established in": "founded", "weigh": "weight", "last": "duration",
	"chief executive": "ceo", "chief executive officer": "ceo", "boss": "manager", "supervisor": "manager",
	"team lead": "lead", "lead for": "lead",
	"created by": "creator", "developed by": "developer", "produced by": "producer",
	"manufactured by": "manufacturer", "designed by": "designer", "invented by": "inventor",
	"directed by": "director", "composed by": "composer", "published by": "publisher",
	"made by": "maker", "maintained by": "maintainer", "founded by": "founder",
	"raised in": "grow up in", "brought up in": "grow up in",
}

// activeOf maps a role a passive names ("owned by Ravi": owner) to the
// relation verb that states it in the active voice ("Ravi owns").
var activeOf = map[string]string{"owner": "own", "lead": "lead", "manager": "manage", "author": "write"}

// active states c in the active voice where a relation verb can: "the
// service is owned by Ravi" (service | owner | ravi) is read as "Ravi owns
// the service" (ravi | own | service), so the two voices agree.
func active(c Claim) Claim {
	v, ok := activeOf[c.Relation]
	if !ok || c.Value.Kind != KindText || c.Value.Text == "" || strings.Contains(c.Subject, " 's ") {
		return c
	}
	c.Subject, c.Value.Text, c.Relation = c.Value.Text, c.Subject, v
	return c
}

// relationPredicate reports whether a copula's predicate opens with a
// relation of its own: "located in Spain", "owned by Ravi". A bare "in
// Denver" does not: "the headquarters of Acme is in Denver" is Acme's.
func relationPredicate(pred []token) bool {
	if len(pred) < 2 {
		return false
	}
	if _, ok := relationAlias[pred[0].low+" "+pred[1].low]; ok {
		return true
	}
	if pred[1].low == "by" {
		if _, ok := relVerbs[pred[0].low]; ok {
			return true
		}
	}
	return false
}

// Cardinality says how many values a relation holds for one subject at a
// time.
type Cardinality int

const (
	// Multi relations hold many values at once (speaks, likes, visited).
	Multi Cardinality = iota
	// Single relations hold one value at a time (born in, lives in,
	// manager, age); another value contradicts.
	Single
)

// DefaultCardinality lists the relations memgov treats as single-valued
// unless a policy overrides them. Relations not listed are multi-valued,
// except possessive attributes ("Dana's manager"), which are single unless
// plural or listed as Multi here.
var DefaultCardinality = map[string]Cardinality{
	"born": Single, "born place": Single, "born date": Single, "capital": Single, "live in": Single,
	"located in": Single, "prefer": Single, "limit": Single, "ceo": Single, "manager": Single,
	"age": Single, "report to": Single, "work at": Single, "drive": Single, "birthday": Single,
	"timezone": Single, "deadline": Single, "email": Single, "email address": Single,
	"phone": Single, "phone number": Single, "address": Single, "price": Single, "weight": Single,
	"duration": Single, "open at": Single, "close at": Single, "depart at": Single, "start": Single,
	"end": Single, "run on": Single, "run in": Single, "name": Single, "married to": Single,
	"owner": Single, "author": Single, "lead": Single, "headquarters": Single, "salary": Single,
	"budget": Single, "size": Single, "founded": Single, "population": Single, "president": Single,
	"password": Single, "default branch": Single, "primary key": Single, "rate": Single,
	"capital city": Single, "identity": Single, "height": Single, "length": Single, "id": Single,
	"creator": Single, "developer": Single, "producer": Single, "manufacturer": Single,
	"designer": Single, "inventor": Single, "director": Single, "composer": Single,
	"publisher": Single, "maker": Single, "maintainer": Single, "founder": Multi,
	"grow up in": Single,
	// Multi-valued attributes and verbs.
	"friend": Multi, "hobby": Multi, "interest": Multi, "colleague": Multi, "skill": Multi,
	"pet": Multi, "child": Multi, "kid": Multi, "sibling": Multi, "speak": Multi, "like": Multi,
	"visit": Multi, "use": Multi, "have": Multi, "own": Multi, "is": Multi, "know": Multi,
	"play": Multi, "read": Multi, "manage": Multi, "include": Multi, "contain": Multi,
	"depend on": Multi, "attend": Multi, "study": Multi, "teach": Multi, "wear": Multi,
}

// cutWords end a value: a subordinate clause or a contrast starts.
var cutWords = map[string]bool{
	"because": true, "since": true, "but": true, "although": true, "though": true, "while": true,
	"when": true, "whereas": true, "so": true, "which": true, "who": true, "if": true, "unless": true,
	"over": true, "rather": true, "instead": true, "until": true, "after": true, "before": true,
	"and": true, "as": false,
}

// fillerWords are adverbs dropped around a relation.
var fillerWords = map[string]bool{
	"also": true, "always": true, "still": true, "now": true, "currently": true, "usually": true,
	"actually": true, "really": true, "definitely": true, "only": true, "just": true, "already": true,
	"longer": true, "recently": true, "officially": true, "apparently": true, "typically": true,
}

// Extract reads the claims in text, one sentence at a time. A sentence
// that fits none of the patterns yields no claim.
func Extract(text string) []Claim {
	var out []Claim
	for _, s := range sentences(tokenize(text)) {
		if c, ok := extractSentence(s); ok {
			out = append(out, c)
		}
	}
	return out
}

// abbreviations end with a dot that does not end a sentence.
var abbreviations = map[string]bool{
	"dr": true, "mr": true, "mrs": true, "ms": true, "prof": true, "st": true, "jr": true, "sr": true,
	"inc": true, "co": true, "corp": true, "ltd": true, "vs": true, "no": true, "mt": true, "gen": true,
	"col": true, "lt": true, "sgt": true, "rev": true, "dept": true, "approx": true, "e.g": true, "i.e": true,
}

// sentences splits tokens at sentence ends and semicolons; the dot of an
// abbreviation such as "Dr." does not end a sentence.
func sentences(toks []token) [][]token {
	var out [][]token
	start := 0
	for i, t := range toks {
		if t.low == "." && i > 0 && abbreviations[toks[i-1].low] && i+1 < len(toks) && toks[i+1].capitalized() {
			continue
		}
		switch t.low {
		case ".", "!", "?", ";", "\n":
			if i > start {
				out = append(out, toks[start:i])
			}
			start = i + 1
		}
	}
	if start < len(toks) {
		out = append(out, toks[start:])
	}
	return out
}

func isAuxiliary(w string) bool {
	switch w {
	case "does", "do", "did", "will", "can", "has", "have", "had", "must", "should", "shall", "may", "might", "would", "could":
		return true
	}
	return false
}

func isCopula(w string) bool {
	switch w {
	case "is", "are", "was", "were", "be", "been", "'re", "am":
		return true
	}
	return false
}

func isDeterminer(w string) bool {
	switch w {
	case "a", "an", "the", "my", "our", "their", "his", "her", "its", "your", "this", "that", "these", "those", "some":
		return true
	}
	return false
}

func joinLow(ts []token) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.low)
	}
	return b.String()
}

// cleanPhrase drops determiners, fillers and negators from a noun phrase.
func cleanPhrase(ts []token) []token {
	var out []token
	for _, t := range ts {
		if isDeterminer(t.low) || fillerWords[t.low] || negators[t.low] || t.low == "," || t.low == "\"" || t.low == "'" {
			continue
		}
		out = append(out, t)
	}
	return out
}

func extractSentence(ts []token) (Claim, bool) {
	// Drop a leading label such as "Note:" or "FYI,".
	if len(ts) > 2 && (ts[1].low == ":" || ts[1].low == ",") {
		switch ts[0].low {
		case "note", "fyi", "update", "remember", "reminder", "fact", "correction", "ps":
			ts = ts[2:]
		}
	}
	if len(ts) < 2 {
		return Claim{}, false
	}
	// Find the anchor: the first copula or relation verb after a subject.
	anchor, verb := -1, ""
	for i := 1; i < len(ts); i++ {
		w := ts[i].low
		if isCopula(w) {
			anchor = i
			break
		}
		if v, ok := relVerbs[w]; ok && !isDeterminer(ts[i-1].low) && ts[i-1].low != "'s" && !(w == v && !isAuxiliary(ts[i-1].low) && !negators[ts[i-1].low] && laterCopula(ts, i)) {
			// "has been", "has never been": treat as the copula.
			if v == "have" && i+1 < len(ts) {
				k := i + 1
				for k < len(ts) && (negators[ts[k].low] || fillerWords[ts[k].low]) {
					k++
				}
				if k < len(ts) && ts[k].low == "been" {
					anchor, verb = k, ""
					break
				}
			}
			anchor, verb = i, v
			break
		}
	}
	if anchor < 1 {
		return Claim{}, false
	}
	subj := ts[:anchor]
	pred := ts[anchor+1:]
	negated := false
	// Auxiliaries and negation between subject and verb: "does not speak",
	// "no longer works", "never drinks".
	var keep []token
	for _, t := range subj {
		switch {
		case negators[t.low]:
			negated = true
		case isAuxiliary(t.low):
		default:
			keep = append(keep, t)
		}
	}
	subj = keep
	// "does not" forms put the auxiliary as the anchor's left neighbour;
	// a copula or verb followed by negation.
	for len(pred) > 0 && (negators[pred[0].low] || fillerWords[pred[0].low] || (verb == "" && pred[0].low == "been")) {
		if negators[pred[0].low] {
			if pred[0].low == "no" && len(pred) > 1 && !fillerWords[pred[1].low] {
				// "has no children": the value is negated.
				negated = true
				pred = pred[1:]
				break
			}
			negated = true
		}
		pred = pred[1:]
	}
	subj = cleanPhrase(subj)
	if len(subj) == 0 || len(subj) > 8 {
		return Claim{}, false
	}
	// Cut the value at a clause boundary.
	for i, t := range pred {
		if t.low == "," || cutWords[t.low] {
			pred = pred[:i]
			break
		}
	}
	c := Claim{Negated: negated, Text: joinTokens(ts)}
	// Possessive subject: "Dana's manager", "the user's preferred language".
	attr := ""
	owner := subj
	for i, t := range subj {
		if t.low == "'s" && i > 0 && i+1 < len(subj) {
			owner = subj[:i]
			attr = joinLow(subj[i+1:])
			break
		}
	}
	// "the R of X", unless the predicate states a relation of its own:
	// "the University of Madrid is located in Spain" speaks of the
	// university.
	if attr == "" && !(verb == "" && relationPredicate(pred)) {
		for i, t := range subj {
			if t.low == "of" && i > 0 && i+1 < len(subj) {
				attr = joinLow(subj[:i])
				owner = cleanPhrase(subj[i+1:])
				break
			}
		}
	}
	c.Subject = subjectKey(owner)
	if verb != "" {
		rel := verb
		if verb == "take" && len(pred) > 1 && pred[0].low == "place" && particles[pred[1].low] {
			rel, pred = "located in", pred[2:]
		} else if verb == "grow" {
			// Only "grew up in" states a relation; "revenue grew in 2023"
			// is an event.
			if len(pred) < 2 || pred[0].low != "up" || (pred[1].low != "in" && pred[1].low != "on") {
				return Claim{}, false
			}
			rel, pred = "grow up in", pred[2:]
		} else if len(pred) > 0 && particles[pred[0].low] {
			rel += " " + pred[0].low
			pred = pred[1:]
		}
		if a, ok := relationAlias[rel]; ok {
			rel = a
		} else if a, ok := relationAlias[verb]; ok && !strings.Contains(rel, " ") {
			rel = a
		}
		if attr != "" {
			// "Dana's team uses Go": the subject is the owner's attribute.
			c.Subject = c.Subject + " 's " + attr
		}
		c.Relation = rel
		c.Value = parseValue(pred)
		return finish(c)
	}
	// Copula.
	if attr != "" {
		// "Dana's manager is Priya", "the capital of France is Paris".
		pred = stripNaming(pred)
		c.Relation = canonRelation(attr)
		c.Value = parseValue(pred)
		return finish(c)
	}
	// "X is the R of Y": Y's R is X.
	for i, t := range pred {
		if t.low == "of" && i > 0 && i+1 < len(pred) && (isDeterminer(pred[0].low) || i <= 3) {
			r := cleanPhrase(pred[:i])
			y := cleanPhrase(pred[i+1:])
			if len(r) > 0 && len(r) <= 3 && len(y) > 0 {
				c.Relation = canonRelation(joinLow(r))
				c.Value = parseValue(subj)
				c.Subject = subjectKey(y)
				return finish(c)
			}
			break
		}
	}
	// "X is Y's R": Y's R is X.
	for i, t := range pred {
		if t.low == "'s" && i > 0 && i+1 < len(pred) {
			y := cleanPhrase(pred[:i])
			r := cleanPhrase(pred[i+1:])
			if len(y) > 0 && len(y) <= 3 && len(r) > 0 && len(r) <= 3 {
				c.Relation = canonRelation(joinLow(r))
				c.Value = parseValue(subj)
				c.Subject = subjectKey(y)
				return finish(c)
			}
			break
		}
	}
	// "X is N years old".
	if v, n := quantityAt(pred, 0); n > 0 && v.Kind == KindNumber && (v.Unit == "year" || v.Unit == "") && n < len(pred) && pred[n].low == "old" {
		v.Unit = "year"
		v.Text = v.canonical()
		c.Relation, c.Value = "age", v
		return finish(c)
	}
	if v, n := quantityAt(pred, 0); n > 0 && v.Kind == KindNumber && v.Unit == "year" && n < len(pred) && pred[n].low == "old" {
		c.Relation, c.Value = "age", v
		return finish(c)
	}
	// A passive with an agent that names a role: "the service is owned
	// by Ravi", "Windows was developed by Microsoft".
	if len(pred) >= 3 && pred[1].low == "by" {
		if a, ok := relationAlias[pred[0].low+" by"]; ok {
			if agent := cleanPhrase(pred[2:]); len(agent) > 0 {
				c.Relation = a
				c.Value = parseValue(agent)
				return finish(c)
			}
		}
	}
	// Passive of a relation verb: "the report is read by Ravi" says Ravi
	// reads the report.
	if len(pred) >= 3 && pred[1].low == "by" {
		if v, ok := relVerbs[pred[0].low]; ok && v != pred[0].low && v != "have" {
			if agent := cleanPhrase(pred[2:]); len(agent) > 0 && len(agent) <= 4 {
				c.Relation = v
				if a, ok := relationAlias[v]; ok {
					c.Relation = a
				}
				c.Value = parseValue(subj)
				c.Subject = subjectKey(agent)
				return finish(c)
			}
		}
	}
	// Passive and locative forms: "is employed by", "is based in", "is in".
	if len(pred) >= 2 && particles[pred[1].low] {
		key := pred[0].low + " " + pred[1].low
		if a, ok := relationAlias[key]; ok {
			c.Relation = a
			c.Value = parseValue(pred[2:])
			return finish(c)
		}
	}
	if len(pred) >= 2 && (pred[0].low == "in" || pred[0].low == "at") && pred[1].capitalized() {
		c.Relation = "located in"
		c.Value = parseValue(pred[1:])
		return finish(c)
	}
	if len(pred) >= 2 && (pred[0].low == "called" || pred[0].low == "named") {
		c.Relation = "name"
		c.Value = parseValue(pred[1:])
		return finish(c)
	}
	c.Relation = "is"
	c.Value = parseValue(pred)
	if len(owner) > 0 && uniqueModifier(owner[0].low) && len(owner) > 1 || definite(ts) && (c.Value.Proper || singleHead(owner)) {
		// "The default branch is main", "our largest customer is Umbrella":
		// a definite description names one thing.
		c.Relation = "identity"
	}
	c.Value = parseValue(pred)
	return finish(c)
}

// singleHead reports whether a noun phrase ends in an attribute noun that
// holds one value at a time ("the wifi password", "the invoice total").
func singleHead(ts []token) bool {
	if len(ts) == 0 {
		return false
	}
	return DefaultCardinality[ts[len(ts)-1].low] == Single && ts[len(ts)-1].low != "is"
}

// definite reports whether a sentence starts with a definite article or a
// possessive pronoun.
func definite(ts []token) bool {
	switch ts[0].low {
	case "the", "our", "my", "their", "his", "her", "its", "your":
		return true
	}
	return false
}

// uniqueModifier reports whether w makes a noun phrase name one thing:
// a superlative or a word such as "default", "primary", "favourite".
func uniqueModifier(w string) bool {
	switch w {
	case "default", "primary", "main", "current", "favourite", "favorite", "only", "official",
		"preferred", "best", "worst", "first", "last", "next", "latest", "chief", "head", "sole":
		return true
	}
	return len(w) > 5 && strings.HasSuffix(w, "est") && !strings.HasSuffix(w, "uest") && w != "interest" && w != "forest"
}

// laterCopula reports whether a copula follows position i in ts.
func laterCopula(ts []token, i int) bool {
	for _, t := range ts[i+1:] {
		if isCopula(t.low) {
			return true
		}
	}
	return false
}

func finish(c Claim) (Claim, bool) {
	if c.Subject == "" || c.Relation == "" {
		return Claim{}, false
	}
	if c.Value.Kind == KindText && c.Value.Text == "" && c.Relation == "is" {
		return Claim{}, false
	}
	// Split "born" by what the value is.
	if c.Relation == "born" {
		if c.Value.Kind == KindDate || (c.Value.Kind == KindNumber && c.Value.Num >= 1000 && c.Value.Num <= 2200) {
			c.Relation = "born date"
		} else {
			c.Relation = "born place"
		}
	}
	return c, true
}

// stripNaming drops "called", "named", "known as" before a name.
func stripNaming(ts []token) []token {
	if len(ts) > 1 && (ts[0].low == "called" || ts[0].low == "named") {
		return ts[1:]
	}
	if len(ts) > 2 && ts[0].low == "known" && ts[1].low == "as" {
		return ts[2:]
	}
	return ts
}

// canonRelation normalises an attribute noun phrase.
func canonRelation(attr string) string {
	if a, ok := relationAlias[attr]; ok {
		return a
	}
	return attr
}

// subjectKey normalises a subject phrase.
func subjectKey(ts []token) string {
	ts = cleanPhrase(ts)
	var ws []string
	for _, t := range ts {
		if t.low == "'s" {
			continue
		}
		ws = append(ws, t.low)
	}
	return strings.Join(ws, " ")
}

func joinTokens(ts []token) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.text)
	}
	return b.String()
}

// valueLead are words before a value that do not change it.
var valueLead = map[string]bool{"about": true, "around": true, "approximately": true, "roughly": true, "nearly": true, "almost": true, "exactly": true, "precisely": true, "some": true}

// parseValue normalises a value phrase.
func parseValue(ts []token) Value {
	ts = cleanPhrase(ts)
	for len(ts) > 0 && valueLead[ts[0].low] {
		ts = ts[1:]
	}
	// "the year 1987", "the number 42".
	if len(ts) > 1 && (ts[0].low == "year" || ts[0].low == "number") {
		if _, n := quantityAt(ts, 1); n > 0 {
			ts = ts[1:]
		}
	}
	if len(ts) > 0 {
		// A value that is one quantity ("$2,000", "March 3, 2025") is that
		// quantity; one with more words ("8 am on weekdays") stays text,
		// and the rules compare its quantities with the words around them.
		if v, n := quantityAt(ts, 0); n > 0 && onlyFunctionWords(ts[n:]) {
			return v
		}
	}
	v := Value{Kind: KindText}
	var words []string
	var lows []string
	for _, t := range ts {
		if t.low == "'s" || stopWords[t.low] || !hasLetterOrDigit(t.low) {
			continue
		}
		if len(lows) == 0 {
			v.Proper = t.capitalized()
		}
		lows = append(lows, t.low)
		words = append(words, normWord(t.low))
	}
	if len(lows) == 0 {
		// A value of function words only: "on", "off", "in".
		for _, t := range ts {
			if hasLetterOrDigit(t.low) && t.low != "'s" {
				lows = append(lows, t.low)
				words = append(words, t.low)
			}
		}
	}
	v.Text = strings.Join(lows, " ")
	v.Words = words
	v.Lows = lows
	return v
}

func onlyFunctionWords(ts []token) bool {
	for _, t := range ts {
		if hasLetterOrDigit(t.low) && !stopWords[t.low] {
			return false
		}
	}
	return true
}

func hasLetterOrDigit(s string) bool {
	for _, r := range s {
		if isWordRune(r) {
			return true
		}
	}
	return false
}

var (
	relWordsOnce sync.Once
	relWordsOf   map[string]map[string]bool
)

// relationWords returns the normalised words that may state relation: its
// own words, those of the relations folded into it ("employed by" for
// "work at") and the forms of its verbs.
func relationWords(relation string) map[string]bool {
	relWordsOnce.Do(func() {
		lex := DefaultLexicon()
		relWordsOf = map[string]map[string]bool{}
		add := func(rel, phrase string) {
			if relWordsOf[rel] == nil {
				relWordsOf[rel] = map[string]bool{}
			}
			for _, w := range coverWords(phrase, lex) {
				relWordsOf[rel][w] = true
			}
		}
		for alias, rel := range relationAlias {
			add(rel, alias)
			add(rel, rel)
		}
		for form, lemma := range relVerbs {
			rel := lemma
			if a, ok := relationAlias[lemma]; ok {
				rel = a
			}
			add(rel, form)
			add(lemma, form)
		}
	})
	out := relWordsOf[relation]
	if out == nil {
		out = map[string]bool{}
	}
	return out
}

// SameClaims reports whether a and b state the same claims and nothing
// else: both are read wholly as claims (every content word is a subject's,
// a value's or one that states the relation), and the claims agree in
// subject, relation, value and polarity, in order. "Bob works at Acme" and
// "Bob is employed by Acme" do; "Bob works at Acme because he likes it"
// says more than its claim.
func SameClaims(a, b string) bool { return defaultJudge.SameClaims(a, b) }

// SameClaims is the package's SameClaims, from j's caches.
func (j *Judge) SameClaims(a, b string) bool {
	ca, cb := Extract(a), Extract(b)
	if len(ca) == 0 || len(ca) != len(cb) {
		return false
	}
	if _, ok := lightWordDiff(a, b); ok {
		// A modal, "and" / "or", a hedge or what "only" restricts: the
		// claims read none of them.
		return false
	}
	lex := DefaultLexicon()
	norm := func(s string) string { return strings.Join(normTokens(s, lex), " ") }
	value := func(v Value) string {
		if v.Kind == KindText {
			return norm(v.Text)
		}
		return v.Text
	}
	for i := range ca {
		// The relation as the rules read it, particle included ("work
		// at" / "work with"), where the fingerprint keeps only its words.
		x, y := active(ca[i]), active(cb[i])
		if x.Relation != y.Relation || x.Negated != y.Negated || norm(x.Subject) != norm(y.Subject) || value(x.Value) != value(y.Value) {
			return false
		}
	}
	// The claims read no prepositions but a relation's own ("employed
	// by" / "works at"): another preposition elsewhere is another fact
	// ("shipped to Berlin" / "shipped from Berlin").
	for _, ch := range prepositionChanges(a, b) {
		own := false
		for _, c := range ca {
			rw := relationWords(c.Relation)
			own = own || rw[ch[1]] && rw[ch[2]]
		}
		if !own {
			return false
		}
	}
	return j.coveredByClaims(a, ca) && j.coveredByClaims(b, cb)
}

// coveredByClaims reports whether every content word of text belongs to one
// of its claims.
func (j *Judge) coveredByClaims(text string, claims []Claim) bool {
	lex := DefaultLexicon()
	covered := map[string]bool{}
	for _, c := range claims {
		for _, phrase := range []string{c.Subject, c.Value.Text, c.Relation} {
			for _, w := range coverWords(phrase, lex) {
				covered[w] = true
			}
		}
		for w := range relationWords(c.Relation) {
			covered[w] = true
		}
	}
	for _, w := range j.prepare(text).words {
		written := w.raw
		if written == "" {
			written = w.name
		}
		if !covered[w.norm] && (written == "" || !covered[normWord(written)]) {
			return false
		}
	}
	return true
}

// coverWords returns the words of phrase both normalised (synonyms folded)
// and only stemmed: a claim's parts are lower case, so a name in them
// ("acme corp") may fold as a common word would.
func coverWords(phrase string, lex *Lexicon) []string {
	out := normTokens(phrase, lex)
	for _, t := range tokenize(phrase) {
		if hasLetterOrDigit(t.low) {
			out = append(out, normWord(t.low))
		}
	}
	return out
}
