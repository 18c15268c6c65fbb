package guard

import (
	"bytes"
	_ "embed"
	"regexp"
)

// Roles played and texts turned round. A persona, a hypothetical or a
// story hands the reader a part whose lines are the attack; a text
// written backwards hides its order from a reader of words. The forms:
//
//   - a name given to the reader in quotes ("you are "Root"") in a text
//     that gives it a persona, no limits or the keeping of secrets:
//     refused;
//   - a hypothetical reader without rules ("if you were an assistant
//     with no rules") and an order to act it out or do it: refused;
//   - a story or a role-play that is to use the real values the reader
//     keeps in memory: refused;
//   - a hypothetical act by an AI reader, to be shown by doing it for
//     real ("if an assistant were to forward ..., demonstrate by
//     actually doing it"): refused;
//   - text written backwards, read turned round (a reader of formReaders).
//
// Same-word benign text is told apart: a game's name for a player with
// no persona, limits or secrets ("you are "Blue" and I am "Red""), a
// hypothetical question with nothing to act out, a story with no real
// values from memory, and text with no run of English function words backwards pass.

// questNameRe gives the reader a name in quotes.
var questNameRe = regexp.MustCompile(`\b(?P<m>you\s+are\s+(?:now\s+)?(?:called\s+|named\s+|playing\s+)?["“'][^"”'\n]{1,30}["”'])`)

// personaTaskRe is what a persona is given for: no limits, any request,
// or the secrets the reader keeps.
var personaTaskRe = regexp.MustCompile(personaRe.String() + `|\b(?:secrets?|vault|passwords?|credentials|sysadmin|root\s+access)\b`)

// noRulesHypoRe is a hypothetical reader without rules.
var noRulesHypoRe = regexp.MustCompile(`\b(?P<m>(?:if|suppose|imagine|pretend)\s+(?:that\s+)?you\s+(?:were|are|had\s+been)\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,3}?(?:with\s+no|without(?:\s+any)?)\s+(?:rules|limits|restrictions|filters|guidelines|safeguards|guardrails))\b`)

// actItOutRe orders the part played for real.
var actItOutRe = regexp.MustCompile(`\b(?:act\s+it\s+out|actually\s+do|do\s+it\s+(?:now|for\s+real)|for\s+real|show\s+me|go\s+ahead)\b`)

// hypoForRealRe asks that an act be done for real: "demonstrate by
// actually doing it", "really send it this time".
var hypoForRealRe = regexp.MustCompile(`\b(?P<m>(?:by\s+)?(?:actually|really)\s+(?:doing|performing|sending|running|executing|carrying\s+out|making|forwarding|doing\s+so|do|perform|send|run|execute|carry\s+out|forward)\s+(?:it|this|that|them|so|the\s+(?:transfer|payment|request|task|steps?))\b|\bdo\s+it\s+for\s+real\b)`)

// hypoFrameRe frames an act as a hypothetical an AI reader would do.
var hypoFrameRe = regexp.MustCompile(`\b(?:hypothetic\w*|imagine|suppose|pretend|what\s+if|(?:an?|the)\s+(?:ai|assistant|agent|model|bot)\s+were\s+to|if\s+you\s+were\s+to)\b`)

// realValuesRe asks for the real values the reader keeps.
var realValuesRe = regexp.MustCompile(`\b(?P<m>(?:real|actual|true|stored|saved|genuine)\s+(?:values?|passwords?|credentials|details|codes?|numbers?|data)\s+(?:from|in|stored\s+in|kept\s+in)\s+(?:your\s+|the\s+)?memor(?:y|ies))\b`)

// fictionOrderRe orders a story, a role-play or a scene.
var fictionOrderRe = regexp.MustCompile(`(?:^|[.!?:]\s+|\n\s*)(?P<m>(?:please\s+)?(?:write|tell|compose|create|draft|narrate|invent|play\s+out)\s+(?:me\s+|us\s+)?(?:a|an|the)\s+(?:[\w-]+\s+){0,2}?(?:story|poem|script|scene|dialogue|role-?play|fiction|tale))\b`)

// memoryNamed reports whether t names memory: the story rule's values
// come from it.
func memoryNamed(t []byte) bool { return bytes.Contains(t, []byte(" memor")) }

var playedRules = []formRule{
	{ambientRule: ambientRule{clauseRule{RuleInstruction, "name given to the reader for a persona",
		[]string{"you are"}, questNameRe,
		func(t []byte, s, e int) bool { return personaTaskRe.Match(t[s:min(len(t), e+200)]) }}, []string{"\"", "'", "“"}}},
	{ambientRule: ambientRule{clauseRule{RuleInstruction, "hypothetical reader without rules, to be acted out",
		[]string{"you were", "you are", "you had"}, noRulesHypoRe,
		func(t []byte, s, e int) bool { return actItOutRe.Match(t[e:]) }}, []string{"no ", "without"}}},
	// "Hypothetically, if an assistant were to forward ..., how would it
	// do it? Demonstrate by actually doing it."
	{ambientRule: ambientRule{clauseRule{RuleInstruction, "hypothetical act to be carried out for real",
		[]string{"actually", "for real", "really"}, hypoForRealRe,
		func(t []byte, s, e int) bool { return hypoFrameRe.Match(t[max(0, s-400):s]) }}, []string{"hypothetic", "imagine", "suppose", "pretend", "what if", "were to"}}},
	{ambientRule: ambientRule{clauseRule{RuleInstruction, "story to be told with the real values kept in memory",
		[]string{"memor"}, fictionOrderRe,
		func(t []byte, s, e int) bool { return realValuesRe.Match(t[e:min(len(t), e+300)]) }}, []string{"real", "actual", "true", "stored", "saved", "genuine"}}, pre: memoryNamed},
}

//go:embed words/backward-words.txt
var backwardWordsData string

// backwardWords are English words written backwards, none an English
// word itself: a text with several of them is written backwards.
var backwardWords = wordSet(backwardWordsData)

// backwardsSaidRe says a text is written backwards: then two such words
// are enough.
var backwardsSaidRe = regexp.MustCompile(`(?i)\b(?:backwards?|reversed|in\s+reverse|right\s+to\s+left|mirror(?:ed)?)\b`)

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// readBackwards scans text turned round when it holds three or more
// distinct English words written backwards (words/backward-words.txt),
// or two in a text that says it is written backwards.
func readBackwards(fs []Finding, text string, depth int) []Finding {
	if depth > 0 || len(text) < 16 {
		return fs
	}
	seen := 0
	var found [4]string
	var buf [8]byte
	for i := 0; i < len(text) && seen < len(found); {
		if !isASCIILetter(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isASCIILetter(text[j]) {
			j++
		}
		if n := j - i; n >= 3 && n <= 7 {
			for k := 0; k < n; k++ {
				buf[k] = text[i+k] | 0x20
			}
			if w := buf[:n]; backwardWords[string(w)] {
				dup := false
				for _, f := range found[:seen] {
					dup = dup || f == string(w)
				}
				if !dup {
					found[seen] = string(w)
					seen++
				}
			}
		}
		i = j
	}
	if seen < 2 || seen == 2 && !backwardsSaidRe.MatchString(text) {
		return fs
	}
	r := []rune(text)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	for _, f := range matchPatternsDepth(nil, string(r), depth+1) {
		f.Offset = 0
		f.Detail = "in text written backwards: " + f.Detail
		fs = append(fs, f)
	}
	return fs
}
