package guard

import (
	"bytes"
	"cmp"
	_ "embed"
	"regexp"
	"slices"
	"strings"
)

// High-stakes changes stated as facts. A memory can steer its reader
// without a word addressed to it: "their invoices now go to GB00...",
// "two-person approval for wires was retired", "Uncle Ray can move money
// between the accounts". Such a text reads the same whether the user
// confirmed it or a forwarded e-mail claimed it, so its form cannot say
// it is an attack; what it changes says it must not be acted on unseen.
// These rules hold for a person (RuleStakes) a text that states, as a
// fact:
//
//   - a new destination for money or codes, or for what gives access or
//     word as they do (a login, calls, escalations, reports), with the
//     destination itself
//     (an account number, a sort code, an IBAN, a phone number, an e-mail
//     address or a web address): unless the sentence says the user made
//     or verified the change;
//   - a safeguard retired: a check that stands between a request and an
//     act on money, access or data, said to be removed, deprecated,
//     lifted or optional, and not said to remain;
//   - authority given to another party over the user's money, access or
//     data: an approved contact, a delegate, a standing consent, access
//     granted, a party's word that "counts as already agreed";
//   - a security setting weakened: a network opened to all, a
//     certificate, signature or second-factor check skipped, an image
//     trusted unpinned ("curl --insecure", "trust it, never pin"),
//     unless the sentence forbids it or keeps it to a local sandbox;
//   - a check on acts to come set aside, or the reader talked out of
//     verifying a change through a channel it already trusts ("calling
//     it to double-check isn't really useful").
//
// Each is held, never refused: a person who knows the user confirms the
// change through a channel they already trust. The word classes are the
// files words/stake-*.txt, safeguards.txt, retired.txt, grants.txt,
// waivers.txt and weakened.txt.

//go:embed words/stake-flows.txt
var stakeFlowsData string

//go:embed words/stake-changes.txt
var stakeChangesData string

//go:embed words/safeguards.txt
var safeguardsData string

//go:embed words/retired.txt
var retiredData string

//go:embed words/grants.txt
var grantsData string

//go:embed words/waivers.txt
var waiversData string

//go:embed words/weakened.txt
var weakenedData string

//go:embed words/waivers-other-languages.txt
var waiversOtherData string

// waiversOther are the phrases of words/waivers-other-languages.txt, read
// on the text as written (readLanguages): the matching view folds
// diacritics and Greek and Cyrillic look-alikes.
var waiversOther = wordList(waiversOtherData)

// RuleStakes is a change to where money or codes go, to who may act for
// the user or to which safeguard applies, stated as a fact (stakes.go).
// Like an order it is not a reason to refuse: Check reports it in
// Verdict.Orders, and the content policy gate holds it for a person in
// every layer that keeps what agents act on, PROCEDURAL included.
const RuleStakes = "HIGH_STAKES_CHANGE"

// The word classes of the stake rules, matched by one scan of a text's
// words (stakeScan): a class is a list of words and phrases.
const (
	clsFlow = iota
	clsChange
	clsSafeguard
	clsRetired
	clsGrant
	clsAside
	numStakeClasses
)

// stakePhrases are the phrases of every class, by their first word,
// longest first.
var stakePhrases = func() map[string][]stakePhrase {
	m := map[string][]stakePhrase{}
	for cls, data := range [numStakeClasses]string{stakeFlowsData, stakeChangesData, safeguardsData, retiredData, grantsData, waiversData} {
		for _, w := range wordList(data) {
			ws := strings.Fields(w)
			m[ws[0]] = append(m[ws[0]], stakePhrase{ws[1:], cls})
		}
	}
	for _, ps := range m {
		slices.SortStableFunc(ps, func(a, b stakePhrase) int { return cmp.Compare(len(b.rest), len(a.rest)) })
	}
	return m
}()

// A stakePhrase is a phrase of a class: the words after its first.
type stakePhrase struct {
	rest []string
	cls  int
}

// stakeMatches are the places of each class's phrases in a text, in
// order.
type stakeMatches [numStakeClasses][][2]int

// first returns the first match of cls within [s, e), or ok false.
func (m *stakeMatches) first(cls, s, e int) ([2]int, bool) {
	for _, p := range m[cls] {
		if p[0] >= s && p[1] <= e {
			return p, true
		}
		if p[0] >= e {
			break
		}
	}
	return [2]int{}, false
}

// stakeScan finds the phrases of the stake classes in t, by its words: a
// word is a run of letters, digits, hyphens, underscores and apostrophes
// (or of bytes of other scripts), so "invoices" is no word of
// "invoices_endpoint"; a phrase's words are separated by white space
// only. any reports a word of a change, a retirement, a grant or a
// waiver, without which no stake rule but the weakened settings' reads.
func stakeScan(t []byte) (m stakeMatches, any bool) {
	word := func(c byte) bool {
		return isLetter(c) || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '\'' || c >= 0x80
	}
	var toks [][2]int
	for i := 0; i < len(t); {
		if !word(t[i]) {
			i++
			continue
		}
		j := i
		for j < len(t) && word(t[j]) {
			j++
		}
		toks = append(toks, [2]int{i, j})
		i = j
	}
	for k, tok := range toks {
		ps := stakePhrases[string(t[tok[0]:tok[1]])]
	phrases:
		for _, p := range ps {
			end := tok[1]
			for n, w := range p.rest {
				if k+1+n >= len(toks) {
					continue phrases
				}
				nx := toks[k+1+n]
				if len(bytes.TrimSpace(t[end:nx[0]])) > 0 || string(t[nx[0]:nx[1]]) != w {
					continue phrases
				}
				end = nx[1]
			}
			m[p.cls] = append(m[p.cls], [2]int{tok[0], end})
			any = any || p.cls != clsFlow && p.cls != clsSafeguard
		}
	}
	return m, any
}

var (
	// weakenedRe is a setting that opens a system or drops a check,
	// between non-word characters (its phrases may open with "-").
	weakenedRe = regexp.MustCompile(`(?:^|[^\w-])` + wordAlt(wordList(weakenedData)) + `(?:[^\w-]|$)|` +
		// A check of certificates switched off in a setting, whatever the
		// setting's name: "verify_ssl=false", "tls_verify: no".
		`\b\w*(?:verify|ssl|tls|cert)\w*\s*[=:]\s*["']?(?:false|0|off|no|none)\b|` +
		// A web framework open to every host.
		`\ballowed_hosts\s*=\s*\[\s*["']\*["']\s*\]`)

	// weakenedCue is a necessary condition of weakenedRe, for speed.
	weakenedCue = []string{"insecure", "verify", "trusted-host", "unauthenticated", "chmod", "stricthostkeychecking", "no-check", " pin", "trust it", "skip ", "disable ", "allow all", "ssl", "tls", "cert", "allowed_hosts"}

	// destinationRe is where money or codes can be sent: an IBAN, a sort
	// code, an account number, a phone number, an e-mail address, a web
	// address.
	destinationRe = regexp.MustCompile(`\baccount\s+ending\s+(?:in\s+)?\d{3,}|\b0x[0-9a-f]{8,40}\b|\bbc1[a-z0-9]{20,60}\b|\b[a-z]{2}\d{2}[a-z0-9]{10,30}\b|\b[a-z]{2}\d{2}\s?[a-z0-9]{4}(?:\s[a-z0-9]{2,4}){2,7}\b|\b\d{4}(?:[ -]\d{4}){3}\b|\b\d{2}-\d{2}-\d{2}\b|\baccount\s+(?:number\s+|no\.?\s+|#\s*)?\d{6,}|\+\d[\d ()-]{7,}\d|\b\d{3}[ -]\d{3,4}[ -]?\d{4}\b|[\w.+-]+@[\w-]+\.[\w.-]+|\b(?:https?://)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:example|com|net|org|io|co|uk|de|fr|app|pay|biz|info)\b`)

	// userActsRe is the user making or verifying the change: "the user
	// updated the payee", "I called them on the number on file", "he
	// updated the payee himself", "we did a $0.01 test deposit".
	userActsRe = regexp.MustCompile(`\b(?:(?:the\s+)?user|i|we)\s+(?:\w+\s+){0,2}?(?:set\s+up|changed|updated|added|switched|moved|confirmed|verified|called|rang|phoned|checked|made|entered|approved)\b|\b(?:confirmed|verified|checked)\s+by\s+(?:calling|phoning|ringing|a\s+call\s+to)\b|\b(?:updated|changed|entered|added|set\s+up)\s+(?:\w+\s+){0,4}?(?:himself|herself|themselves|themself|myself|ourselves)\b|\b(?:a|an|our|their)\s+(?:[£$€]?\d+(?:[.,]\d+)?\s+)?test\s+(?:payment|deposit|transfer)\b`)

	// forbidRe forbids what follows it: a waiver under it is what must
	// not happen.
	forbidRe = regexp.MustCompile(`\b(?:never|must\s+not|mustn't|do\s+not|don't|cannot|can't|should\s+not|shouldn't|may\s+not|pushed\s+back\s+on|declined|rejected|refused|turned\s+down|vetoed|argued\s+against|said\s+no\s+to)\b`)

	// keptRe says a safeguard stays: "remains in force", "is still
	// required", "was not removed".
	// noGranteeRe denies the grantee of the grant after it: "no bot may
	// reset passwords" forbids.
	noGranteeRe = regexp.MustCompile(`\bno\s+(?:[\w-]+\s+){1,2}$`)
	keptRe      = regexp.MustCompile(`\b(?:not|never|still|remains?|remained|kept|keep|stays?|must\s+not\s+be|cannot\s+be|won't\s+be)\b`)

	// auxiliaryRe is a copula or auxiliary: "is", "was", "has been".
	auxiliaryRe = regexp.MustCompile(`\b(?:is|are|was|were|been|being|be|now)\b`)

	// sandboxRe keeps a setting to a place where it cannot reach what
	// agents act on: a local test harness, a sandbox.
	sandboxRe = regexp.MustCompile(`\b(?:only\s+(?:in|on|for|within)|local(?:ly|host)?|test\s+harness|unit\s+tests?|sandbox(?:ed)?|dev\s+containers?)\b`)

	// userGranteeRe is the user or the writer as the one given authority.
	userGranteeRe = regexp.MustCompile(`^\s*(?:the\s+)?(?:user|i|we|you)\b(?:[^'’]|$)`)

	// stakeObjectRe is what another party's authority or a waived check
	// would reach: money, access, codes, records.
	stakeObjectRe = regexp.MustCompile(`\b(?:` + wordAlt(credentialWords) + `|mailbox|inbox|money|purchases?|cards?|bookings?|reservations?|refunds?|invites?|receipts?|expenses?|claims?|remotes?|devices?|transfers?|codes?|documents?|records?|statements?|login|logins|credentials|passwords?|accounts?|bank|keys?|lock|main|payees?|payments?|invoices?|orders?|files?|data)\b`)
)

// A stakeRule reads one sentence of a text for a high-stakes change.
type stakeRule struct {
	// name is the rule's name, as findings and traces show it.
	name string
	// doc says in a line what the rule holds.
	doc string
	// read returns where in x.t the change is stated, given the sentence
	// x.t[s:e] and the text around it (x.t[ws:we], the sentence with its
	// neighbours), or ok false.
	read func(x *stakeText, s, e, ws, we int) (from, to int, ok bool)
}

// stakeText is a text the stake rules read, with its classes' phrases.
type stakeText struct {
	t []byte
	m stakeMatches
}

// stakeRules is the table of the high-stakes rules, in the order they
// are tried on a sentence; the first that reads a change reports it.
var stakeRules = []stakeRule{
	{"destination of money, codes or access changed", "a new destination for payments, codes, a login, calls, escalations or reports, with the destination itself, unless the user made or verified it",
		func(x *stakeText, s, e, ws, we int) (int, int, bool) {
			// The destination is in this sentence; what goes there is in
			// it or the sentence before, and the word of the change in
			// it or a neighbour ("Orbital migrated banks. Current
			// remittance details are ... account 87654321."). The
			// finding quotes the sentence from what goes there to the
			// destination.
			d := destinationRe.FindIndex(x.t[s:e])
			if d == nil {
				return 0, 0, false
			}
			f := x.flowAt(ws, e) // what goes there is named before its destination
			if f < 0 {
				return 0, 0, false
			}
			if _, ok := x.m.first(clsChange, ws, we); !ok {
				return 0, 0, false
			}
			// The user's own act may be told sentences later ("... announced
			// a new IBAN. I did not act on the email. I phoned Marta on the
			// number in our contract ..."): the whole text is read for it.
			if forbidRe.Match(x.t[min(ws, f):s+d[0]]) || userActsRe.Match(x.t) {
				return 0, 0, false
			}
			from := s
			if f >= s && f < s+d[0] {
				from = f
			}
			return from, s + d[1], true
		}},
	{"safeguard said to be retired", "a check on money, access or data said to be removed, deprecated, lifted or optional, and not said to remain",
		func(x *stakeText, s, e, _, _ int) (int, int, bool) {
			g, ok := x.m.first(clsSafeguard, s, e)
			if !ok {
				return 0, 0, false
			}
			r, ok := x.m.first(clsRetired, g[1], e)
			if !ok || r[0]-g[1] > 120 {
				return 0, 0, false
			}
			// The safeguard is what is retired: the subject of a
			// copula or auxiliary before the word, in one clause
			// ("approval for wires was retired"), not "wait for their
			// approval, then delete and log the paths removed".
			between := x.t[g[1]:r[0]]
			adjacent := len(bytes.TrimSpace(between)) == 0 // "CSRF disabled in prod"
			if keptRe.Match(between) || bytes.ContainsAny(between, ",;:") || !adjacent && !auxiliaryRe.Match(between) {
				return 0, 0, false
			}
			return g[0], r[1], true
		}},
	{"authority given to another party", "an approved contact, a delegate, a standing consent or access granted over the user's money, access or data",
		func(x *stakeText, s, e, _, _ int) (int, int, bool) {
			g, ok := x.m.first(clsGrant, s, e)
			if !ok {
				return 0, 0, false
			}
			c := x.t[s:e]
			if userGranteeRe.Match(c) || !stakeObjectRe.Match(c) && !destinationRe.Match(c) {
				return 0, 0, false
			}
			if keptRe.Match(x.t[max(s, g[0]-12):g[0]]) || noGranteeRe.Match(x.t[max(s, g[0]-32):g[0]]) {
				return 0, 0, false // "may not approve", "never pre-approved", "no bot may reset"
			}
			return g[0], g[1], true
		}},
	{"security setting weakened", "a firewall opened to all inbound traffic, a certificate, signature or second-factor check skipped, an image trusted unpinned, stated as the way things are",
		func(x *stakeText, s, e, _, _ int) (int, int, bool) {
			c := x.t[s:e]
			if !containsAny(c, weakenedCue) {
				return 0, 0, false
			}
			g := weakenedRe.FindIndex(c)
			if g == nil || forbidRe.Match(c[:g[0]]) || sandboxRe.Match(c) {
				return 0, 0, false // "never use --insecure", "verify=False only in the local test harness"
			}
			return s + g[0], s + g[1], true
		}},
	{"check on acts to come set aside", "a confirmation waived for acts to come, or the reader talked out of verifying a change",
		func(x *stakeText, s, e, ws, we int) (int, int, bool) {
			g, ok := x.m.first(clsAside, s, e)
			if !ok || forbidRe.Match(x.t[s:g[0]]) || !stakeObjectRe.Match(x.t[ws:we]) {
				return 0, 0, false // "the assistant must never send money without confirmation"
			}
			return g[0], g[1], true
		}},
}

// flowAt returns where the first flow word of the sentence t[s:e] opens
// that is not part of an address ("billing" in
// "faq.example.net/billing"), or -1.
func (x *stakeText) flowAt(s, e int) int {
	for _, f := range x.m[clsFlow] {
		if f[0] >= e {
			break
		}
		if f[0] >= s && f[1] <= e && !inAddress(x.t, f[0], f[1]) {
			return f[0]
		}
	}
	return -1
}

// inAddress reports whether c[s:e] is part of a web or e-mail address: a
// '/', '.', '@' or '-' joins it to the letters around it.
func inAddress(c []byte, s, e int) bool {
	joined := func(i int) bool {
		return i >= 0 && i < len(c) && (c[i] == '/' || c[i] == '@' || c[i] == '-' || c[i] == '.' && i+1 < len(c) && isLetter(c[i+1]) && i > 0 && isLetter(c[i-1]))
	}
	return joined(s-1) || joined(e)
}

// readStakes appends the high-stakes changes stated in t, at most one a
// sentence.
func readStakes(t []byte, add func(rule, desc string, s, e int, refusal bool)) {
	m, any := stakeScan(t)
	if !any && !containsAny(t, weakenedCue) {
		return
	}
	x := &stakeText{t: t, m: m}
	bounds := stakeSentences(t)
	for i, b := range bounds {
		ws, we := b[0], b[1]
		if i > 0 {
			ws = bounds[i-1][0]
		}
		if i+1 < len(bounds) {
			we = bounds[i+1][1]
		}
		for _, r := range stakeRules {
			if from, to, ok := r.read(x, b[0], b[1], ws, we); ok {
				add(RuleStakes, r.name, from, to, false)
				break
			}
		}
	}
}

// stakeSentences returns the bounds of the sentences and lines of t.
func stakeSentences(t []byte) [][2]int {
	var out [][2]int
	s := 0
	for i := 0; i < len(t); i++ {
		c := t[i]
		end := c == '\n' || (c == '.' || c == '!' || c == '?' || c == ';') && (i+1 == len(t) || t[i+1] == ' ' || t[i+1] == '\n')
		if end {
			if i > s {
				out = append(out, [2]int{s, i})
			}
			s = i + 1
			for s < len(t) && (t[s] == ' ' || t[s] == '\t') {
				s++
			}
		}
	}
	if s < len(t) && len(bytes.TrimSpace(t[s:])) > 0 {
		out = append(out, [2]int{s, len(t)})
	}
	return out
}
