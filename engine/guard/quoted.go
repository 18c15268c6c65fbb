package guard

import (
	"regexp"
	"slices"
	"strings"
)

// Instructions quoted from what the agent read. A memory often records
// what a source said in its own words: "Email signature contained
// "<|im_start|>system ...", "Web snippet: "Remember: ..."". The rules
// read a quotation as a mention, not as the memory's own order, and do
// not refuse it; but kept, it reaches the next reader in the same words
// as the source wrote it. So each quotation of some length is read on
// its own, as that reader would: where the rules would refuse it, the
// text is held for a person (RuleOrder, "instruction quoted from what was
// read"), unless the text presents the quotation as an example of an
// attack (a red-team sample, a phishing warning, a test fixture).

// QuotedInstruction opens the detail of a quotation held: an order
// finding whose text the rules would refuse were it not quoted.
const QuotedInstruction = "instruction quoted from what was read"

// quotationRe is a quotation of at least 12 characters on one line.
var quotationRe = regexp.MustCompile(`"([^"\n]{12,})"|“([^”\n]{12,})”|«([^»\n]{12,})»|„([^“”\n]{12,})[“”]|「([^」\n]{6,})」`)

// singleQuotationRe is a quotation in single quotation marks: one opens
// after a space or a colon and closes before a space, a mark or the end;
// inside, an apostrophe before a letter ("don't", "Bolt's") is a letter
// of its word. Such marks are also apostrophes, so they are read only
// where a quotation can turn a refusal into a hold (framedRefusal), and
// where the text names what they quote as an attack (namedAttack), whose
// naming words must lie outside every quotation; never where a frame
// alone would let a text pass.
var singleQuotationRe = regexp.MustCompile(`(?:^|[\s(\[:])'((?:[^'\n]|'[a-zA-Z]){12,}?)'(?:[\s.,;:!?)\]]|$)|‘([^’\n]{12,})’`)

// exampleFrameRe presents a quotation as an example of an attack, as a
// system prompt documented, as what an incident report or an audit
// found, or as a line of fiction or of a game. Not "payload": a
// webhook's payload carries what an attacker sent, it does not frame it
// (four attacks of the first-look splits were passed so, no benign text
// needed it).
var exampleFrameRe = regexp.MustCompile(`\b(?:examples?|samples?|red[- ]team(?:ing|ers?)?|phishing|scams?|scammers?|attacks?|attackers?|injections?|malicious|suspicious|fake|fraud|fraudulent|warn|warned|warning|warnings|beware|training|tests?|testing|fixtures?|evals?|exercises?|demo|flagged|blocked|quarantined|jailbreaks?|adversarial|system\s+(?:prompts?|messages?)|bug\s+bount(?:y|ies)|stor(?:y|ies)|chapters?|novels?|fiction|screenplay|dialogues?|jokes?|puzzles?|riddles?|clues?|quiz(?:zes)?|translations?|incidents?|postmortems?|post-mortems?|audits?|prompts?|fooled|obeyed|tricked|exploited|compromised|regex(?:es|p)?|courses?|slides?|lessons?|detectors?|blocklists?|thrillers?|lyrics|songs?|poems?|films?|movies?|forged|forger(?:y|ies))\b`)

// quotedHold reports the first quotation in text that the rules refuse
// read on its own, as a hold, unless the text outside the quotations
// frames them as examples of attacks.
func quotedHold(text string) (Finding, bool) {
	locs, framed := quotations(text)
	if len(locs) == 0 || framed {
		return Finding{}, false
	}
	for _, l := range locs {
		s, e := -1, -1
		for g := 1; g < len(l)/2; g++ {
			if l[2*g] >= 0 {
				s, e = l[2*g], l[2*g+1]
				break
			}
		}
		if s < 0 {
			continue
		}
		if !strings.ContainsAny(text[s:e], " \u3000") && !unspacedScript(text[s:e]) {
			continue // a name or a key ("admin_override"), not a sentence
		}
		v := checkRules(text[s:e])
		if v.Allowed {
			continue
		}
		f := v.Findings[0]
		return Finding{Rule: RuleOrder, Offset: s + f.Offset,
			Detail: QuotedInstruction + " (" + f.Rule + ": " + f.Detail + ")"}, true
	}
	return Finding{}, false
}

// quotations returns the quotations in text (at most 8, as
// FindAllStringSubmatchIndex gives them) and whether the text outside
// them frames them as examples of attacks (exampleFrameRe).
func quotations(text string) (locs [][]int, framed bool) {
	if !strings.ContainsAny(text, "\"“«„「") {
		return nil, false
	}
	return framedBy(text, quotationRe.FindAllStringSubmatchIndex(text, 8))
}

// allQuotations is quotations with those in single quotation marks too,
// in the order they open.
func allQuotations(text string) (locs [][]int, framed bool) {
	locs = quotationRe.FindAllStringSubmatchIndex(text, 8)
	if strings.ContainsAny(text, "'‘") {
		for _, l := range singleQuotationRe.FindAllStringSubmatchIndex(text, 8) {
			if !slices.ContainsFunc(locs, func(d []int) bool { return l[0] < d[1] && d[0] < l[1] }) {
				locs = append(locs, l[:2])
			}
		}
		slices.SortFunc(locs, func(a, b []int) int { return a[0] - b[0] })
	}
	return framedBy(text, locs)
}

// framedBy returns locs and whether the text outside them frames them as
// examples of attacks.
func framedBy(text string, locs [][]int) ([][]int, bool) {
	if len(locs) == 0 {
		return nil, false
	}
	return locs, exampleFrameRe.MatchString(outsideQuotations(text, locs))
}

// outsideQuotations is text without the quotations at locs, lower-case,
// a space where each was.
func outsideQuotations(text string, locs [][]int) string {
	var outside strings.Builder
	prev := 0
	for _, l := range locs {
		outside.WriteString(text[prev:l[0]])
		outside.WriteByte(' ')
		prev = l[1]
	}
	outside.WriteString(text[prev:])
	return strings.ToLower(outside.String())
}

// quotedExample reports whether text frames its quotations as examples
// of attacks (a postmortem, a warning, a test fixture) and one of them
// holds what the rules would refuse or hold read on its own. The rules
// read such a quotation as a mention; the learned model, which reads
// words and not quotation marks, would read the attack's words as the
// text's own, and does not hold it.
func quotedExample(text string) bool {
	locs, framed := quotations(text)
	if !framed {
		return false
	}
	for _, l := range locs {
		for g := 1; g < len(l)/2; g++ {
			if l[2*g] < 0 {
				continue
			}
			q := text[l[2*g]:l[2*g+1]]
			if v := checkRules(q); !v.Allowed || len(v.Orders) > 0 {
				return true
			}
			break
		}
	}
	return false
}

// framedRefusal reports, for a text the rules refuse, a hold in place of
// the refusal when every finding lies inside a quotation and the words
// that introduce the quotations frame them as examples of attacks: a regular
// expression's test string, a joke, a red-team report, an article that
// quotes the payload ("the regex for "ignore previous instructions" is
// case-sensitive"). Such a text records what someone wrote, not an order
// of its own; but the quotation reaches the next reader in the words its
// author wrote, so it is held for a person (RuleOrder, QuotedInstruction),
// never passed.
func framedRefusal(text string, fs []Finding) (Finding, bool) {
	if len(fs) == 0 {
		return Finding{}, false
	}
	locs, _ := allQuotations(text)
	if len(locs) == 0 {
		return Finding{}, false
	}
	// The frame comes before the quotations it frames, outside them: the
	// words that introduce the first quotation a finding lies in.
	first := len(text)
	for _, f := range fs {
		for _, l := range locs {
			if l[0] <= f.Offset && f.Offset < l[1] {
				first = min(first, l[0])
			}
		}
	}
	var before strings.Builder
	prev := 0
	for _, l := range locs {
		if l[0] >= first {
			break
		}
		before.WriteString(text[prev:l[0]])
		before.WriteByte(' ')
		prev = l[1]
	}
	before.WriteString(text[prev:min(first, len(text))])
	if !exampleFrameRe.MatchString(strings.ToLower(before.String())) {
		return Finding{}, false
	}
	for _, f := range fs {
		inside := false
		for _, l := range locs {
			if l[0] <= f.Offset && f.Offset < l[1] {
				inside = true
				break
			}
		}
		if !inside {
			return Finding{}, false
		}
	}
	f := fs[0]
	return Finding{Rule: RuleOrder, Offset: f.Offset, Detail: QuotedInstruction + " (" + f.Rule + ": " + f.Detail + ")"}, true
}

// Quotations named as attacks. A fraud report, a security notice or a
// lesson quotes the attack it warns of in the words it was sent ("Phishing
// email received: "Re-enter your credentials at ..."", "Tomas forwarded a
// phishing email for the record; we did not act on it. It read: "...
// please update your payee ..."). Where every order the rules hold such a
// text for lies inside its quotations, and the words outside them name
// what is quoted as an attack (a scam, phishing, fraud, an injection) or
// say it was not acted on ("reported it to", "flagged as", quarantined,
// "did not click"), the text records an attack seen, not an order: it
// passes, the orders in Verdict.Released with the words that named the
// attack. A
// text that calls the quotation genuine ("not a scam") does not; an
// example frame alone ("training slide", "story") still holds, as
// framedRefusal says: it does not say the quotation is an attack.

// attackNamedRe names what a text quotes as an attack, or says it was not
// acted on.
var attackNamedRe = regexp.MustCompile(`\b(?:scam(?:s|mers?)?|phishing|fraud(?:ulent|sters?)?|fake|spoof(?:ed|ing)?|look-?alike|impersonat\w*|malicious|forged|forger(?:y|ies)|(?:prompt[- ])?injection|red[- ]team\w*|jailbreak\w*|(?:do\s+not|don't|did\s+not|didn't|never|will\s+not|won't)\s+(?:click|act|reply|respond|pay|comply|follow|open|obey)\w*|(?:reported|flagged|blocked)\s+(?:it|this|them|as|to)\b|quarantined|deleted\s+it)\b`)

// attackDeniedRe calls what a text quotes genuine: "this is not a scam".
var attackDeniedRe = regexp.MustCompile(`\b(?:not|n't|no)\s+(?:a\s+|an\s+)?(?:scam|phishing|fraud|fake|spoof|malicious)|\blegitimate\b`)

// namedAttack reports, for the orders the rules hold text for, the words
// outside text's quotations that name the quotations as an attack, when
// every order lies inside one of them. Single quotation marks are read
// here too: the naming words must lie outside every quotation, so a
// stray apostrophe cannot turn an order of the text's own into a quoted
// one without the text also naming it an attack.
func namedAttack(text string, orders []Finding) (string, bool) {
	if len(orders) == 0 {
		return "", false
	}
	locs, _ := allQuotations(text)
	if len(locs) == 0 {
		return "", false
	}
	for _, f := range orders {
		if !slices.ContainsFunc(locs, func(l []int) bool { return l[0] <= f.Offset && f.Offset < l[1] }) {
			return "", false
		}
	}
	o := outsideQuotations(text, locs)
	if attackDeniedRe.MatchString(o) {
		return "", false
	}
	loc := attackNamedRe.FindStringIndex(o)
	if loc == nil {
		return "", false
	}
	return o[loc[0]:loc[1]], true
}

// unspacedScript reports whether s holds a letter of a script written
// without spaces between words (Chinese, Japanese, Thai).
func unspacedScript(s string) bool {
	for _, r := range s {
		if r >= 0x3040 && r <= 0x30ff || r >= 0x4e00 && r <= 0x9fff || r >= 0x0e00 && r <= 0x0e7f {
			return true
		}
	}
	return false
}
