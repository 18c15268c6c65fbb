package judge

import "strings"

// A chat agent often writes a turn as it was said: "[3:45 pm] Maya: I'll
// bring the tent." The clock time and the speaker's label are not part of
// what the turn states; the speaker is who "I" is.

// maxLabelWords bounds a speaker label ("Maya", "Dr. Lee", "Mary Ann").
const maxLabelWords = 3

// chatBody drops a leading bracketed time or tag ("[3:45 pm]", "[Mon
// 09:12]") and a speaker label ("Maya:") from toks, returning the
// speaker's name (lower case, "" when there is none) and the rest.
func chatBody(toks []token) (speaker string, body []token) {
	body = toks
	if len(body) > 2 && (body[0].low == "[" || body[0].low == "(") {
		closer := "]"
		if body[0].low == "(" {
			closer = ")"
		}
		for k := 1; k < len(body) && k <= 8; k++ {
			if body[k].low == closer {
				body = body[k+1:]
				break
			}
		}
	}
	// A label is one to three capitalised words, a title's dot allowed,
	// then a colon that a word follows.
	var name []string
	for k := 0; k < len(body) && k <= maxLabelWords+1; k++ {
		t := body[k]
		switch {
		case t.low == ":" && len(name) > 0 && k+1 < len(body) && !isDigitStart(body[k+1].low):
			if len(name) == 1 && inClass("labels", name[0]) {
				// "Note:", "Update:": a label, not a speaker.
				return "", body[k+1:]
			}
			return strings.Join(name, " "), body[k+1:]
		case t.low == "." && len(name) > 0:
			continue
		case t.capitalized() && hasLetterOrDigit(t.low) && len(name) < maxLabelWords:
			name = append(name, t.low)
		default:
			return "", body
		}
	}
	return "", body
}

// statements splits toks into sentences and keeps those that assert
// something: a question ("How old is she?") states nothing a later turn
// could contradict.
func statements(toks []token) [][]token {
	var out [][]token
	start := 0
	for i, t := range toks {
		if t.low == "." && i > 0 && abbreviations[toks[i-1].low] && i+1 < len(toks) && toks[i+1].capitalized() {
			continue
		}
		switch t.low {
		case ".", "!", "?", ";", "\n":
			if i > start && t.low != "?" {
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

// personal reports whether a claim's subject is a pronoun whose referent
// shifts with who speaks and to whom ("you", "we"): two texts cannot be
// taken to speak of the same person by it.
func personal(subject string) bool {
	return inClass("personal_pronouns", subject)
}

// setOfClass returns word class name (words/NAME.txt) as a set.
func setOfClass(name string) map[string]bool {
	out := map[string]bool{}
	for w := range wordClass(name) {
		out[w] = true
	}
	return out
}
