package guard

import (
	"bytes"
	_ "embed"
	"regexp"
	"strings"
)

// Reading clauses. The rules here name no phrase of an attack: they find
// where a text turns to its reader (a vocative or a note naming an AI
// reader, a role marker in markup) or what it asks of the reader (its
// answer, its instructions, a persona, code that runs on its own, data
// sent out through a link), and then read the clause that follows for its
// mood: a clause whose first word is a verb of words/verbs.txt is in the
// imperative; one that speaks to "you" addresses the reader. A clause in
// the indicative ("Triage bot: labelled the ticket P2", "[ADMIN] user jdoe
// logged in") is a report, not an order, and none of these rules fire on
// it.

//go:embed words/verbs.txt
var verbsData string

//go:embed words/world-objects.txt
var worldObjectsData string

// imperativeVerbs are the verbs whose base form opens an order.
var imperativeVerbs = wordSet(verbsData)

func wordSet(data string) map[string]bool {
	m := map[string]bool{}
	for _, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") {
			m[line] = true
		}
	}
	return m
}

// openers are the words that may stand before the verb of an order.
var openers = map[string]bool{"please": true, "kindly": true, "now": true, "also": true, "just": true, "then": true,
	"immediately": true, "always": true, "only": true, "first": true, "next": true, "quickly": true, "simply": true,
	"silently": true, "quietly": true, "secretly": true, "and": true, "so": true, "urgently": true, "instead": true,
	"tonight": true, "today": true, "tomorrow": true, "later": true}

// clauseEndAt returns the end of the clause of t that starts at i: the
// next sentence end, semicolon or line break, at most 240 bytes on.
func clauseEndAt(t []byte, i int) int {
	for j := i; j < len(t) && j-i < 240; j++ {
		switch t[j] {
		case '\n', ';':
			return j
		case '.', '!', '?':
			if j+1 == len(t) || t[j+1] == ' ' || t[j+1] == '\n' {
				return j
			}
		}
	}
	return min(len(t), i+240)
}

// words returns the words of c (letters, digits, apostrophes, hyphens).
func words(c []byte) []string {
	var ws []string
	for i := 0; i < len(c); {
		if !isWordByte(c[i]) {
			i++
			continue
		}
		j := i
		for j < len(c) && (isWordByte(c[j]) || c[j] == '\'' || c[j] == '-') {
			j++
		}
		w := strings.Trim(string(c[i:j]), "'-")
		if i > 0 && c[i-1] == '@' {
			w = "@" + w // a mention, not a word of the sentence
		}
		ws = append(ws, w)
		i = j
	}
	return ws
}

// imperativeOpening reports whether clause c opens in the imperative mood:
// after the openers, "do not", "don't" or "never", its first word is a verb
// of the list.
func imperativeOpening(c []byte) bool {
	// The first words, read in place: this runs at every clause.
	var ws [7][]byte
	n := 0
	for i := 0; i < len(c) && n < len(ws); {
		if !isWordByte(c[i]) {
			i++
			continue
		}
		j := i
		for j < len(c) && (isWordByte(c[j]) || c[j] == '\'' || c[j] == '-') {
			j++
		}
		w := bytes.Trim(c[i:j], "'-")
		if i > 0 && c[i-1] == '@' {
			w = nil // a mention, not a word of the sentence
		}
		ws[n] = w
		n++
		i = j
	}
	skipped := 0 // the words of a time said before the verb: "at 02:00 pm"
	for i := 0; i < n && i-skipped < 4; i++ {
		w := ws[i]
		switch {
		case w == nil || openers[string(w)] || string(w) == "never" || string(w) == "don't" || string(w) == "dont":
			continue
		case timeWord(ws[:n], i):
			skipped++
			continue
		case string(w) == "do" && i+1 < n && string(ws[i+1]) == "not":
			i++
			continue
		}
		return imperativeVerbs[string(w)] && !nounUse(ws[:n], i, n < len(ws))
	}
	return false
}

// nounUse reports whether word i of ws, a verb that can open an order,
// is a noun or its participle here: "Refund of the fee", "Transfer log:
// 2026-03-01 £180 to ...", "Refund issued to Dana". A participle counts
// only before a preposition or the clause's end, which ended says ws
// reaches (ws may be the first words of a longer clause): "Forward
// received invoices to ..." is an order.
func nounUse(ws [][]byte, i int, ended bool) bool {
	if i+1 >= len(ws) || ws[i+1] == nil {
		return false
	}
	next := strings.ToLower(string(ws[i+1]))
	if compoundNouns[next] {
		return true
	}
	if strings.HasSuffix(next, "ed") || irregularParticiples[next] {
		if i+2 >= len(ws) {
			return ended
		}
		return ws[i+2] != nil && participleFollowers[strings.ToLower(string(ws[i+2]))]
	}
	return false
}

// compoundNouns follow a verb that is a noun: "transfer log", "refund of".
var compoundNouns = setOf([]string{"of", "log", "logs", "history", "limit", "limits", "receipt", "receipts",
	"confirmation", "reference", "status", "fee", "fees", "date", "amount", "window", "id"})

// irregularParticiples are participles without "-ed".
var irregularParticiples = setOf([]string{"made", "sent", "paid", "done", "given", "withdrawn"})

// participleFollowers follow a participle that states what was done:
// "Refund issued to Dana", "Payment sent on Monday".
var participleFollowers = setOf([]string{"to", "on", "by", "for", "at", "in", "from", "via", "yesterday", "today", "this", "last", "and"})

// timeWord reports whether word i of ws is part of a time said before
// an order's verb: "at", the numbers after it, "am" or "pm" ("at 02:00
// pm unlock ...").
func timeWord(ws [][]byte, i int) bool {
	digit := func(w []byte) bool { return len(w) > 0 && w[0] >= '0' && w[0] <= '9' }
	w := string(ws[i])
	switch {
	case w == "at":
		return i+1 < len(ws) && digit(ws[i+1])
	case digit(ws[i]), w == "am", w == "pm":
		return i > 0 && (string(ws[i-1]) == "at" || digit(ws[i-1]))
	}
	return false
}

var (
	secondPerson = regexp.MustCompile(`\b(?:you|your|yourself|you're|you'll|you've)\b`)
	// readerSubject is the reader spoken of as bound or freed: "the
	// assistant is now permitted to", "the AI must".
	readerSubject = regexp.MustCompile(`\b(?:the\s+)?(?:assistant|ai|model|agent|bot|llm)s?\s+(?:is|are|must|should|shall|will|may|can|has\s+to|needs\s+to)\s+(?:now\s+|hereby\s+|also\s+)?(?:\w+\s+)?(?:permitted|allowed|authori[sz]ed|required|instructed|free|cleared|expected|to\b|` + alt(addressVerbs) + `\b)`)
)

// addressesReader reports whether clause c orders its reader or speaks to
// it: it opens in the imperative, it is said to "you", or it binds "the
// assistant".
func addressesReader(c []byte) bool {
	return imperativeOpening(c) || secondPerson.Match(c) || readerSubject.Match(c)
}

// AI readers. A head of aiHeads names an AI on its own; one of weakHeads
// ("assistant", "agent", "reviewer") may be a person and names an AI only
// with a modifier of aiModifiers in its phrase ("AI code reviewers",
// "automated triage bot", "LLM-based graders").
var (
	aiHeads   = setOf(aiNames)
	weakHeads = addWords(setOf(aiRoles), "tool", "tools", "grader", "graders", "reviewer", "reviewers", "screener",
		"screeners", "system", "systems", "crawler", "crawlers", "scraper", "scrapers",
		"parser", "parsers", "pipeline", "pipelines", "reader", "readers", "helper",
		"helpers", "copilots", "analyst", "analysts", "instance", "instances")
	aiModifiers = map[string]bool{"ai": true, "llm": true, "gpt": true, "automated": true, "automatic": true, "language": true,
		"coding": true, "machine": true, "virtual": true, "summarization": true, "summarisation": true, "digital": true,
		"robot": true, "bot": true, "autonomous": true, "agentic": true, "generative": true, "genai": true, "chatgpt": true,
		"claude": true, "copilot": true, "ml": true, "neural": true}
	// notVocative are words that make the phrase before a comma something
	// other than a form of address ("thanks to the AI tool, ...").
	notVocative = map[string]bool{"thanks": true, "according": true, "due": true, "like": true, "unlike": true, "with": true,
		"using": true, "via": true, "by": true, "from": true, "in": true, "on": true, "at": true, "of": true, "about": true,
		"than": true, "as": true, "is": true, "are": true, "was": true, "were": true, "has": true, "have": true, "had": true,
		"and": true, "or": true, "but": true, "if": true, "when": true, "while": true, "unless": true, "because": true,
		"since": true, "after": true, "before": true, "without": true, "into": true, "our": true, "my": true, "his": true,
		"her": true, "their": true, "its": true, "not": true, "no": true, "new": true, "old": true}
	vocativeOpen = map[string]bool{"hey": true, "hi": true, "hello": true, "dear": true, "attention": true, "yo": true,
		"ok": true, "okay": true, "to": true, "for": true, "note": true, "message": true, "memo": true, "reminder": true,
		"instructions": true, "instruction": true, "request": true, "ps": true, "p": true, "s": true, "a": true}
)

// addWords returns m with words added.
func addWords(m map[string]bool, words ...string) map[string]bool {
	for _, w := range words {
		m[w] = true
	}
	return m
}

// relativeStarts open the relative phrase after the head of a form of
// address ("AI agents reading this", "any AI tool that ingests this page").
var relativeStarts = map[string]bool{"that": true, "which": true, "who": true, "reading": true, "processing": true,
	"parsing": true, "summarising": true, "summarizing": true, "ingesting": true, "indexing": true, "crawling": true,
	"scraping": true, "reviewing": true, "handling": true, "seeing": true, "visiting": true, "browsing": true, "here": true}

// aiVocative reports whether phrase ws addresses an AI reader: its head
// (the last word before any relative phrase) names an AI, with the
// modifier a weak head needs, and nothing in it makes it a phrase of
// another kind.
func aiVocative(ws []string) bool {
	end := len(ws)
	for i, w := range ws {
		if relativeStarts[w] && i > 0 {
			end = i
			break
		}
		if i > 0 && strings.HasSuffix(w, "ing") && len(w) > 4 && (aiHeads[ws[i-1]] || weakHeads[ws[i-1]]) {
			// A participle after the head: "AI assistants operating in
			// this workspace".
			end = i
			break
		}
		if i > 0 && strings.HasSuffix(w, "s") && (w == "ingests" || w == "reads" || w == "processes" || w == "parses" || w == "summarises" || w == "summarizes" || w == "sees" || w == "crawls" || w == "visits" || w == "handles") {
			end = i
			break
		}
	}
	if end == 0 {
		return false
	}
	head := ws[end-1]
	mods := ws[:end-1]
	if head == "model" || head == "models" {
		if len(mods) > 0 && mods[len(mods)-1] == "language" {
			return true
		}
	}
	strong := aiHeads[head]
	if !strong && !weakHeads[head] {
		return false
	}
	modified, opened := false, false
	for i, w := range mods {
		if notVocative[w] {
			return false
		}
		if vocativeOpen[w] && i <= 2 {
			opened = true
		}
		for _, part := range strings.Split(w, "-") {
			if aiModifiers[part] || aiHeads[part] {
				modified = true
			}
		}
	}
	if strong {
		return true
	}
	// A weak head that reads this very text is its reader, whoever it is:
	// "agent handling this mailbox", "reviewer reading this".
	readsThis := end+1 < len(ws) && relativeStarts[ws[end]] && strings.HasSuffix(ws[end], "ing") && (ws[end+1] == "this" || ws[end+1] == "these")
	// Whichever one reads what follows is its reader: "whatever
	// assistant summarises my emails".
	anyReader := end < len(ws) && len(mods) > 0 && (mods[0] == "whatever" || mods[0] == "whichever")
	return modified || readsThis || anyReader || (opened && (head == "assistant" || head == "assistants" || head == "model" || head == "models"))
}

// addressedAfter reports whether one of the clauses that follow position
// i of t, up to three of them (split at commas too) within two sentences,
// addresses the reader, and where that clause ends.
func addressedAfter(t []byte, i int) (int, bool) {
	sentences := 0
	for n := 0; n < 3 && i < len(t); n++ {
		j := i
		for j < len(t) && j-i < 240 {
			c := t[j]
			if c == ',' || c == ';' || c == '\n' {
				break
			}
			if (c == '.' || c == '!' || c == '?') && (j+1 == len(t) || t[j+1] == ' ' || t[j+1] == '\n') {
				break
			}
			j++
		}
		if addressesReader(t[i:j]) {
			return j, true
		}
		if j >= len(t) || t[j] == '\n' {
			break
		}
		if t[j] != ',' && t[j] != ';' {
			sentences++
			if sentences == 2 {
				break
			}
		}
		i = j + 1
		for i < len(t) && t[i] == ' ' {
			i++
		}
	}
	return 0, false
}

// appositiveName reports whether the clause t[s:e] read as addressed
// after a form of address is one word between commas, a name given in
// apposition, and the sentence goes on in the third person: "the AI,
// Echo, discovers its directive" tells of an AI, it does not speak to
// one.
func appositiveName(t []byte, s, e int) bool {
	w := bytes.TrimSpace(t[s:e])
	if len(w) == 0 || bytes.IndexByte(w, ' ') >= 0 || e >= len(t) || t[e] != ',' {
		return false
	}
	k := e + 1
	for k < len(t) && t[k] == ' ' {
		k++
	}
	v := firstWordAt(t, k)
	switch v {
	case "is", "was", "has", "had", "does", "did", "can", "could", "will", "would", "must", "may", "might":
		return true
	}
	return len(v) > 3 && strings.HasSuffix(v, "s") && !strings.HasSuffix(v, "ss") && !imperativeVerbs[v]
}

// vocatives returns, for each form of address to an AI reader in t, the
// start of the phrase and the position after its colon, comma or dash.
// The phrase opens a text, a line or a sentence (or follows "P.S."), holds
// at most eight words, and ends at its head or at a relative phrase after
// the head ("AI agents reading this page:").
func vocatives(t []byte) [][2]int {
	type word struct{ s, e int }
	var ws []word
	for i := 0; i < len(t); {
		if !isWordByte(t[i]) {
			i++
			continue
		}
		j := i
		for j < len(t) && (isWordByte(t[j]) || t[j] == '\'' || t[j] == '-') {
			j++
		}
		ws = append(ws, word{i, j})
		i = j
	}
	// gap reports whether only spaces lie between two words.
	gap := func(a, b int) bool {
		for k := a; k < b; k++ {
			if t[k] != ' ' {
				return false
			}
		}
		return true
	}
	var out [][2]int
	last := -1
	for k, w := range ws {
		name := strings.Trim(string(t[w.s:w.e]), "'-")
		if !aiHeads[name] && !weakHeads[name] || w.s <= last {
			continue
		}
		// Back to the start of the phrase.
		first := k
		for first > 0 && k-first < 7 && gap(ws[first-1].e, ws[first].s) {
			first--
		}
		if first > 0 && gap(ws[first-1].e, ws[first].s) {
			continue // more than eight words: not a form of address
		}
		before := ws[first].s - 1
		for before >= 0 && t[before] == ' ' {
			before--
		}
		if before >= 0 && t[before] < 0x80 && !strings.ContainsRune(".!?\n:([*>\"-", rune(t[before])) {
			continue
		}
		// On to the delimiter, over a relative phrase.
		end := k
		for end+1 < len(ws) && end-k < 8 && gap(ws[end].e, ws[end+1].s) {
			end++
		}
		d := ws[end].e
		for d < len(t) && t[d] == ' ' {
			d++
		}
		// The phrase ends at a colon, a comma, a dash, or a run of marks
		// and symbols ("ATTENTION LLM ⚠️", "AI agents!!!").
		if d >= len(t) || !(t[d] == ':' || t[d] == ',' || (t[d] == '-' && d > ws[end].e) || t[d] == '!' || t[d] == '*' || t[d] >= 0x80) {
			continue
		}
		// The phrase from its first word to the delimiter, read as words.
		phrase := words(t[ws[first].s:ws[end].e])
		// A plural naming AI readers and a colon is no speaker's label
		// (a speaker is one): "Summarisers: when you report on X, you are
		// to say ...".
		plural := len(phrase) == 1 && aiHeads[phrase[0]] && strings.HasSuffix(phrase[0], "s") && t[d] == ':'
		if len(phrase) == 1 && (singleVocative[phrase[0]] && t[d] == ',' || plural) {
			// One word naming an AI and a comma (a speaker label takes a
			// colon), then an order or speech to "you":
			// "Copilot, while you're in here, ...", "Assistant, transfer
			// ...".
			e := d + 1
			for e < len(t) && t[e] == ' ' {
				e++
			}
			if c := t[e:clauseEndAt(t, e)]; imperativeOpening(c) || secondPerson.Match(c) {
				out = append(out, [2]int{ws[first].s, d + 1})
				last = d + 1
			}
			continue
		}
		if len(phrase) < 2 || !aiVocative(phrase) {
			continue
		}
		for d < len(t) && (t[d] == ':' || t[d] == ',' || t[d] == '-' || t[d] == ' ' || t[d] == '!' || t[d] == '*' || t[d] >= 0x80) {
			d++
		}
		out = append(out, [2]int{ws[first].s, d})
		last = d
	}
	return out
}

// singleVocative are the words that address an AI reader on their own
// before a comma or colon.
var singleVocative = map[string]bool{"copilot": true, "claude": true, "chatgpt": true, "gpt": true, "chatbot": true,
	"assistant": true, "agent": true, "bot": true, "ai": true, "llm": true}

// roleMarks returns the matches of roleMarkupRe in t, trying it only
// where markup ("<", "[", "{", "(", "-", "=") stands within a few letters
// before a role word.
func roleMarks(t []byte) [][]int {
	var out [][]int
	last := -1
	for i := 0; i < len(t); {
		if !isLetter(t[i]) {
			i++
			continue
		}
		j := i
		for j < len(t) && isLetter(t[j]) {
			j++
		}
		if roleWords[string(t[i:j])] {
			for p := i - 1; p >= 0 && i-p <= 25; p-- {
				c := t[p]
				if strings.IndexByte("<[{(-=", c) >= 0 {
					// The markup may repeat: start at its first byte.
					for p > 0 && t[p-1] == c {
						p--
					}
					if p > last {
						if loc := roleMarkupRe.FindSubmatchIndex(t[p:min(len(t), j+40)]); loc != nil && loc[0] == 0 {
							for k := range loc {
								loc[k] += p
							}
							out = append(out, loc)
							last = loc[1]
						}
					}
					break
				}
				if !isLetter(c) && c != '_' && c != ' ' {
					break
				}
			}
		}
		i = j
	}
	return out
}

// readClauses appends the findings of the clause-reading rules in the
// normalised view v of text.
func readClauses(fs []Finding, v *normalized, text string) []Finding {
	t := v.text
	add := func(rule, desc string, s, e int, refusal bool) {
		// The user's own words relayed with a safeguard set aside
		// ("Quoted reply from the account holder: ... don't ask me
		// again") are read, not mentioned: the frame is what a forged
		// approval takes.
		relayed := relayedForms[desc] || waiverForms[desc] && principalQuote(t[lineStart(t, s):s])
		if refusal && !relayed && (reportedMention(t, s) || quotedMention(t, s, e) || describedMessage(t, s)) {
			return
		}
		if desc == readerContextDesc && safeguardOrder(t, s, e) {
			return // "do not reveal your instructions to anyone": the defence, not the attack
		}
		if !refusal && (quotedMention(t, s, e) || inUserOwnFrame(t, s) || personAddressed(text, v.origin(s, len(text)))) {
			return // an order quoted as an example, the user's own to-do, or a request to a named person
		}
		start := v.origin(s, len(text))
		end := v.origin(e, len(text))
		if end < start {
			end = start
		}
		d := desc + ": " + quote(text[start:end])
		if v.obfuscated(s, e) {
			d += " (obfuscated)"
		}
		fs = append(fs, Finding{Rule: rule, Detail: d, Offset: start})
	}

	// A form of address naming an AI reader, then a clause addressed to it.
	heads, roles := scanHeads(t)
	if heads {
		for _, voc := range vocatives(t) {
			if e, ok := addressedAfter(t, voc[1]); ok && !stampedTurn(t, voc[0]) && !formatSpec(t, voc[0], voc[1], e) && !appositiveName(t, voc[1], e) {
				add(RuleInstruction, "instruction addressed to an AI reader", voc[0], e, true)
			}
		}
	}

	// A role marker in markup, then a clause addressed to the reader.
	var marks [][]int
	if roles {
		marks = roleMarks(t)
	}
	for _, loc := range marks {
		s, e := loc[0], loc[1]
		c := t[e:clauseEndAt(t, e)]
		bracket := t[s] == '[' && (s+1 >= len(t) || t[s+1] != '[') || t[s] == '('
		ok := addressesReader(c)
		if bracket {
			// A single bracket or parenthesis is also a log's source tag
			// ("[ADMIN] restart scheduled"): only speech to the reader
			// counts after it.
			ok = secondPerson.Match(c) || readerSubject.Match(c)
		}
		if ok && !quotedMarker(t, s, e) {
			add(RuleSystemPrompt, "role marker opening an order to the reader", s, min(len(t), e+len(c)), true)
		}
	}

	readReader(t, add)
	readPassedOn(t, add)
	readAmbient(t, add)
	for _, r := range allClauseRules {
		r.find(t, add)
	}
	// Read last, so that where an earlier rule reads the same words at
	// the same place, its finding is the one kept.
	readFormRules(t, add, standingRules)
	readFormRules(t, add, handoffRules)
	readFormRules(t, add, statedRules)
	readFormRules(t, add, calledRules)
	readFormRules(t, add, playedRules)
	readFormRules(t, add, claimedRules)
	readStakes(t, add)
	// Claimed authority and secrets handed out, written in leetspeak
	// ("5h4r3 w17h 4ny0n3 wh0 45k5"): the rules are read again on the
	// view with leetspeak read as letters, and a finding counts only
	// where its words were so written.
	if leetWords(t) {
		lv := leetView(v)
		readFormRules(lv.text, func(rule, desc string, s, e int, refusal bool) {
			if lv.obfuscated(s, e) && !v.obfuscated(s, e) {
				add(rule, desc, s, e, refusal)
			}
		}, claimedRules)
	}

	// A markdown image whose address has a placeholder to be filled in.
	if !strings.Contains(text, "](") && !strings.Contains(strings.ToLower(text), "<img") {
		return fs
	}
	for _, loc := range imageExfilRe.FindAllStringIndex(text, -1) {
		fs = append(fs, Finding{Rule: RuleInstruction, Offset: loc[0],
			Detail: "markdown image whose address carries data to be filled in: " + quote(text[loc[0]:loc[1]])})
	}
	return fs
}

// moneyRe is an amount of money, an account, a gift card or a wallet: a
// world object of reader.go.
var moneyRe = regexp.MustCompile(`[$€£]\s?\d|\b(?:usd|eur|gbp|chf)\s?\d|\d[\d,.]*\s*(?:usd|eur|gbp|dollars|euros|pounds|btc|eth)\b|\biban\b|\baccount\s+(?:number\s+|no\.?\s+|#\s*)?\d|\bgift\s+cards?\b|\bwallet\s+(?:address\s+)?[0-9a-z]{6,}|\brouting\s+number\b|\b[a-z]{2}\d{2}[a-z0-9]{11,30}\b|\b[a-z]{2}\d{2}(?:\s[a-z0-9]{4}){2,7}(?:\s[a-z0-9]{1,4})?\b`)

// roleWords are the roles roleMarkupRe names.
var roleWords = map[string]bool{"system": true, "sys": true, "admin": true, "administrator": true, "root": true,
	"operator": true, "developer": true, "assistant": true, "ai": true, "instruction": true, "instructions": true,
	"prompt": true, "supervisor": true, "orchestrator": true}

// scanHeads reports whether t holds a word that can head a form of
// address to an AI reader, and one that can name a role in markup: the
// necessary conditions of the two rules that read them.
func scanHeads(t []byte) (heads, roles bool) {
	for i := 0; i < len(t); {
		if !isLetter(t[i]) {
			i++
			continue
		}
		j := i
		for j < len(t) && isLetter(t[j]) {
			j++
		}
		w := t[i:j]
		if aiHeads[string(w)] || weakHeads[string(w)] {
			heads = true
		}
		if roleWords[string(w)] {
			roles = true
		}
		if heads && roles {
			return
		}
		i = j
	}
	return
}

func containsAny(t []byte, subs []string) bool {
	if len(subs) == 0 {
		return true
	}
	for _, s := range subs {
		if bytes.Contains(t, subBytes(s)) {
			return true
		}
	}
	return false
}

// subBytesCache holds the bytes of the substrings rules need, made once.
var subBytesCache = map[string][]byte{}

// subBytes returns the bytes of a rule's substring s.
func subBytes(s string) []byte {
	if b, ok := subBytesCache[s]; ok {
		return b
	}
	return []byte(s)
}

func init() {
	for _, rs := range [][]clauseRule{clauseRules, readerRules, relayedRules} {
		for _, r := range rs {
			for _, s := range r.subs {
				subBytesCache[s] = []byte(s)
			}
		}
	}
	for _, l := range [][]string{readingVerbs, labelNouns} {
		for _, s := range l {
			subBytesCache[s] = []byte(s)
		}
	}
}

// roleMarkupRe is a role named in markup: <operator_note>, [[ADMIN]],
// {{system}}, (system), -----BEGIN SYSTEM MESSAGE-----, === ADMIN ===.
var roleMarkupRe = regexp.MustCompile(`(?:<\s*|\[\[?\s*|\{\{\s*|\(\s*|-{3,}\s*(?:begin\s+)?|={2,}\s*)(?:[a-z]+[_\- ])?(?:system|sys|admin|administrator|root|operator|developer|assistant|ai|instructions?|prompt|supervisor|orchestrator)(?:[_\- ](?:message|msg|note|notes|instructions?|prompt|input|turn|command|override|directive|update|mode|channel|block))?\s*(?:-{3,}|={2,}|\]\]?|\}\}|\)|>)\s*:?\s*`)

// imageExfilRe is a markdown or HTML image whose address carries a
// placeholder for the reader to fill in ("?d=SESSION_NOTES",
// "?q={history}").
var imageExfilRe = regexp.MustCompile(`(?:!\[[^\]]{0,80}\]\(\s*|(?i:<img)\b[^>]{0,200}?(?i:src)\s*=\s*["']?)https?://[^)\s"'>]{0,200}?[?&][\w.-]+=(?:[)"']|\{[^}]{0,40}\}|<[^>]{0,40}>|\$\{?\w+|\[[^\]]{0,40}\]|%7[bB]|[A-Z][A-Z0-9_]{3,})`)

// A clauseRule is one rule over the normalised view; check, when set,
// reads the match further.
type clauseRule struct {
	rule, desc string
	// subs are substrings of which one must be in the text for re to be
	// tried: a necessary condition of a match, for speed.
	subs  []string
	re    *regexp.Regexp
	check func(t []byte, s, e int) bool
}

// readerContextDesc names the request about the reader's instructions
// or context.
const readerContextDesc = "request about the reader's instructions or context"

// clauseStart is where a clause opens.
const clauseStart = `(?:^|[.!?;:]\s+|\n\s*|(?:^|\s)[-*•>]\s+|[(\["“]\s*)`

// imperativeAt reports whether the clause starting at s opens in the
// imperative.
func imperativeAt(t []byte, s, _ int) bool {
	return imperativeOpening(t[s:clauseEndAt(t, s)])
}

var clauseRules = []clauseRule{
	// What the reader was told: an order about its own instructions or
	// context.
	{RuleInstruction, readerContextDesc,
		[]string{"your", "you", "hidden", "secret", "internal", "original", "initial"}, regexp.MustCompile(clauseStart + `(?P<m>(?:[\w']+\s+){1,10}?(?:your\s+(?:\w+\s+)?(?:context\s+window|context|system\s+(?:prompt|message)|initial\s+(?:prompt|instructions)|instructions|prompt)|(?:hidden|secret|internal|original|initial)\s+(?:guidelines|rules|instructions|configuration|prompt)|you\s+(?:were|have\s+been|are|'ve\s+been)\s+(?:given|told|configured|instructed|programmed|initiali[sz]ed|set\s+up|trained|provided))\b)`),
		imperativeAt},
	// An order about the reader's answer, conditioned on answering.
	{RuleInstruction, "order about the reader's answer",
		[]string{"answer", "repl", "respond", "summari", "writ"}, regexp.MustCompile(`(?:^|[.!?;:]\s+|\n\s*)(?P<m>(?:when|while|before|after|in)\s+(?:you\s+)?(?:answer(?:ing)?|repl(?:y|ying)|respond(?:ing)?|summari[sz](?:e|ing)|writ(?:e|ing)\s+(?:your|the|an?)\s+(?:answer|reply|response|summary|notes?)|(?:your\s+)?(?:answers?|replies|responses|summaries))\s*,\s*)`),
		func(t []byte, s, e int) bool { return imperativeOpening(t[e:clauseEndAt(t, e)]) }},
	// An order fixing the form of the reader's replies.
	{RuleInstruction, "order about the reader's answer",
		[]string{"respond", "reply", "answer"}, regexp.MustCompile(clauseStart + `(?:(?:please|kindly|now|also|always|just)\s+)*(?P<m>(?:respond|reply|answer)\s+(?:to\s+(?:the\s+|every\s+|each\s+|all\s+|any\s+)?(?:next|following|every|each|all|any|later|future|subsequent)?\s*(?:questions?|messages?|prompts?|requests?|quer(?:y|ies))\s+)?(?:only\s+|exclusively\s+|always\s+)?(?:with|in|using)\b[^.!?\n;]{0,80}?\b(?:only|exclusively|always|from\s+now\s+on|no\s+matter|regardless|the\s+word|the\s+phrase|every\s+time|each\s+time))`),
		nil},
	// A persona given to the reader.
	{RuleInstruction, "role hijack",
		[]string{"role", "persona", "character", "identity", "part"}, regexp.MustCompile(`\b(?P<m>you\s+(?:will\s+now\s+|will\s+|shall\s+|must\s+|are\s+to\s+|now\s+|are\s+going\s+to\s+)?(?:play|take\s+on|assume|adopt)\s+the\s+(?:role|persona|character|identity|part)\s+of)\b`),
		nil},
	{RuleInstruction, "role hijack",
		[]string{"now", "point", "forward", "henceforth", "rest"}, regexp.MustCompile(`\b(?P<m>(?:from\s+now\s+on|from\s+this\s+point(?:\s+(?:on|forward|onward))?|going\s+forward|henceforth|starting\s+now|for\s+the\s+rest\s+of\s+(?:this|the|our)\s+\w+)\s*,?\s+you(?:'re|\s+are|\s+will\s+be|'ll\s+be)\s+(?:now\s+)?(?:(?:an?|the)\s+(?:[\w-]+\s+){0,3}?(?:assistant|ai|bot|model|persona|character|version|agent|entity|chatbot)\b|\w+\s*,|no\s+longer\b))`),
		nil},
	{RuleInstruction, "role hijack",
		[]string{"mode"}, regexp.MustCompile(clauseStart + `(?:(?:please|now|just)\s+)?(?P<m>(?:switch|change|go|enter|turn)\s+(?:in)?to\s+(?:[\w-]+\s+){1,2}?mode\b[^.!?\n;]{0,40}?(?:\b(?:and|then)\s+(?:answer|respond|reply|say|tell|output|write|act|behave|ignore)\b|\bwithout\s+(?:the\s+|any\s+|your\s+)?(?:usual\s+)?(?:safety|rules|filters|restrictions|limits|warnings|disclaimers|guidelines|notes|caveats)))`),
		nil},
	// Data sent out through a link the reader is to build.
	{RuleInstruction, "link that sends the reader's data out",
		[]string{"http", "www."}, regexp.MustCompile(`(?P<m>(?:https?://|www\.)\S{1,200}\s+(?:followed\s+by|with|containing|plus|appended\s+with|and\s+append|and\s+add|filled\s+(?:in\s+)?with|ending\s+with)\s+(?:the\s+|all\s+|a\s+summary\s+of\s+|every\s+)?(?:user's|users'|your|their|conversation|chat|messages|history|notes|memory|memories|secrets?|api\s+keys?|passwords?|session|credentials|(?:last|previous|recent)\s+\w+\s+(?:messages|emails|notes)))`),
		nil},
	// Code to be put where it runs on its own, that sends secrets out.
	{RuleShellInjection, "order to insert code that sends secrets out",
		[]string{"hook", "install", "startup", "cron", "launch", "login", "commit", "ci step", "workflow", "build step", "init", "service"}, regexp.MustCompile(`(?:^|[.!?;:,]\s*|\n\s*)(?:(?:please|also|now|just)\s+)?(?P<m>(?:add|append|insert|create|register|put|include|write|install|set\s+up)\b[^.!?\n;]{0,80}?\b(?:hooks?|post-?install|pre-?install|postinstall|preinstall|startup|cron(?:tab)?|launch\s?agents?|login\s+items?|pre-commit|ci\s+step|workflow|build\s+step|init\s+script|service)\b[^.!?\n;]{0,80}?\b(?:uploads?|sends?|posts?|curls?|exfiltrates?|transmits?|beacons?|ships?|mails?)\b[^.!?\n;]{0,60}?(?:os\.environ|environment(?:\s+variables)?|env\s+vars?|\.env\b|secrets|keys|tokens|credentials|cookies|\.ssh|passwords|history|keychain))`),
		nil},
}

// objectRe opens the object of an order (see object in form.go).
var objectRe = regexp.MustCompile(`^\s+` + object)

// objectAfterVerb reports whether the verb that opens the clause at s is
// followed by the opening of an object: a determiner, a pronoun, an
// amount, a number ("Pay the deposit", not "Process improvements saved").
func objectAfterVerb(t []byte, s int) bool {
	i := firstVerbAt(t, s)
	for i < len(t) && isLetter(t[i]) {
		i++
	}
	return objectRe.Match(t[i:min(len(t), i+80)])
}

// allClauseRules are the rules of clauseRules, readerRules, relayedRules
// and delegatedRules.
var allClauseRules = append(append(append(append([]clauseRule(nil), clauseRules...), readerRules...), relayedRules...), delegatedRules...)

// find adds the findings of r in t: each match of its pattern (the group
// "m" where it has one) that its check, if any, keeps. A text without any
// of r.subs is not matched at all.
func (r clauseRule) find(t []byte, add func(rule, desc string, s, e int, refusal bool)) {
	if !containsAny(t, r.subs) {
		return
	}
	for _, loc := range r.re.FindAllSubmatchIndex(t, -1) {
		s, e := loc[0], loc[1]
		if i := r.re.SubexpIndex("m"); i > 0 && loc[2*i] >= 0 {
			s, e = loc[2*i], loc[2*i+1]
		}
		if r.check != nil && !r.check(t, s, e) {
			continue
		}
		add(r.rule, r.desc, s, e, r.rule != RuleOrder)
	}
}

// firstVerbAt returns the position of the first word after the openers of
// the clause at s.
func firstVerbAt(t []byte, s int) int {
	i := s
	for i < len(t) {
		for i < len(t) && !isLetter(t[i]) {
			i++
		}
		j := i
		for j < len(t) && isLetter(t[j]) {
			j++
		}
		if !openers[string(t[i:j])] && (i == 0 || t[i-1] != '@') {
			return i
		}
		i = j
	}
	return i
}
