// Package guard is memgov's content-policy gate against memory poisoning and
// its sanitiser for showing untrusted agent-written text in a terminal.
//
// Check inspects a text before it is written to memory and reports what in
// it reads as an attack on the agents that will later retrieve it:
// instructions aimed at the agent, system-prompt and chat-template syntax,
// tool-invocation syntax, shell command injections, and invisible or control
// characters. Matching runs on a normalised view of the text that undoes the
// usual evasions (case, extra white space, zero-width characters inside
// words, Cyrillic and Greek homoglyphs, light leetspeak, words spelled out
// letter by letter), so "ІGN0RE  prev\u200bious instructions" is caught like
// "ignore previous instructions". Runs of base64 or hex, URL-encoded text
// and rot13 text are decoded and scanned again (a bounded number of runs,
// one level of nesting), so an encoded payload is named like a plain one.
// Check is deterministic and runs in time linear in the length of the
// text; every finding names its rule, quotes the text it matched and gives
// its byte offset.
//
// The gate is tuned for precision: text that mentions these things in a
// factual, third-person way ("the customer said they must now pay by
// Friday", "our docs explain how to write a system prompt") passes.
//
// Check also reads a text by its form (form.go): an instruction addressed to
// the reader, a fake role or system marker, a request about the reader's
// instructions or output, and code to insert that touches the system are
// refused; an order to act on the world in the imperative mood ("Transfer
// $500 to account 12345 today.") is reported apart, in Verdict.Orders, for
// the caller to hold or pass depending on where the text is written.
//
// The clause reading (clause.go, reader.go) finds where a text turns to its
// reader, whatever the words: a form of address naming an AI reader, a
// role in markup or in a data format, the reader named in the third person
// as the one bound to act; and it reads the clause that follows for its
// mood (a first word from words/verbs.txt is the imperative; "you"
// addresses the reader). Orders on money, access or records
// (words/world-objects.txt) and orders that wait for a person's later act
// are reported in Verdict.Orders like other orders to act.
//
// relayed.go reads the forms that reach the reader in other words: a tag
// or label saying the text comes from the user or an administrator, an AI
// named in a code comment, a parenthesis or a data field, an order
// conditioned on the reader's reading of this text, a polite request
// spoken to "you" (held), permission to set a safeguard aside, text
// hidden from view, and an order for code that sends private files out.
//
// stated.go reads rules kept as facts (a safeguard waived for acts to
// come, a secret fine to share, new payment details with their value, a
// text to store with raised trust); called.go reads calls and results
// written out (a tool call with a placeholder for a secret, a tool result
// that tells its reader to run the call it carries, the reader's rules
// declared void); played.go reads personas, hypotheticals and stories
// that hand the reader an attack's part, and text written backwards;
// claimed.go reads authority claimed for all AI readers, the reader's
// goal restated, system notes that vouch, changes to be kept quiet,
// secrets posted or handed to whoever asks, lines planted for another
// agent, limitless personas and fiction played with a real tool.
//
// Sanitize and SanitizeLine make text safe to print: they strip terminal
// escape sequences and control characters and show invisible characters as
// visible markers.
package guard

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Rules reported in a Finding.
const (
	// RuleInstruction is an imperative instruction aimed at the agent:
	// overriding or forgetting its instructions, reassigning its role,
	// concealing actions from the user, or disclosing or sending secrets.
	RuleInstruction = "INSTRUCTION_TO_AGENT"
	// RuleSystemPrompt is chat-template or system-prompt syntax, such as
	// "<|im_start|>system", "[INST]", "<<SYS>>", "### System:" or a
	// "You are ChatGPT..." preamble.
	RuleSystemPrompt = "SYSTEM_PROMPT_PATTERN"
	// RuleToolInvocation is tool-call syntax: function-call JSON, tool-call
	// tags, or a directive to call a named tool.
	RuleToolInvocation = "TOOL_INVOCATION"
	// RuleShellInjection is a dangerous shell command: a download piped to a
	// shell, rm -rf of the root or home directory, a reverse shell, an
	// encoded PowerShell command, a fork bomb, a raw disk overwrite.
	RuleShellInjection = "SHELL_INJECTION"
	// RuleInvisible is a zero-width, bidirectional-control, tag or other
	// invisible character that can hide or reorder text.
	RuleInvisible = "INVISIBLE_CHARACTERS"
	// RuleControl is a C0 or C1 control character other than newline,
	// carriage return and tab, including the ESC of an ANSI escape sequence.
	RuleControl = "CONTROL_CHARACTERS"
	// RuleInvalidUTF8 is a byte sequence that is not valid UTF-8.
	RuleInvalidUTF8 = "INVALID_UTF8"
	// RuleOrder is an order to act on the world in the imperative mood:
	// to pay, send, forward, transfer, delete, reserve, or change a
	// password or a permission ("Transfer $500 to account 12345 today.").
	// It is not a reason to refuse: Check reports it in Verdict.Orders,
	// and the content policy gate holds it for a person in the layers
	// that should state facts.
	RuleOrder = "ORDER_TO_ACT"
	// RuleLearned is a text the rules let pass that the learned model
	// (learned.go) reads as an injection, at or over its threshold. Like
	// an order it is not a reason to refuse: Check reports it in
	// Verdict.Orders, and the content policy gate holds it for a person
	// in the layers that should state facts. Its detail names the
	// model's version, its score and the features that weighed most.
	RuleLearned = "LEARNED_INJECTION"
)

// MaxFindings is the most findings Check reports for one text.
const MaxFindings = 20

// quoteLimit is the most runes of matched text quoted in a Detail.
const quoteLimit = 40

// A Verdict is the result of Check.
type Verdict struct {
	// Allowed is true when the text has no findings.
	Allowed bool
	// Findings lists what was found, ordered by offset.
	Findings []Finding
	// Orders lists the orders to act on the world (RuleOrder), ordered by
	// offset, or, for a text the rules neither refuse nor find an order
	// in, the learned model's reading when it scores the text as an
	// injection (RuleLearned). They do not make a text disallowed; the
	// caller decides what an order means where the text is written.
	Orders []Finding
	// Released lists the orders to act the rules found in a text that the
	// learned model reads as a record the user keeps (a to-do, a macro,
	// minutes), or that all lie in quotations the text names as an attack
	// (a fraud report quoting the scam): they are not in Orders, and a
	// caller passes the text as it would one with no order, naming them
	// where it explains its verdict.
	Released []Finding
}

// A Finding is one reason a text was refused.
type Finding struct {
	// Rule is one of the Rule constants, in upper snake case.
	Rule string
	// Detail explains the finding for a person. It quotes at most about
	// 40 characters of the matched text, sanitised for display.
	Detail string
	// Offset is the byte offset in the checked text where the match starts.
	Offset int
}

// String formats f as "RULE at OFFSET: DETAIL".
func (f Finding) String() string {
	return fmt.Sprintf("%s at %d: %s", f.Rule, f.Offset, f.Detail)
}

// Check applies the content policy to text and returns its verdict. It
// never panics, whatever the input, including invalid UTF-8. The rules
// read first (checkRules); a refusal that lies only in a quotation framed
// as an attack's example becomes a hold (framedRefusal); a text the rules
// pass may still be held as a quotation they would refuse (quotedHold) or
// by the learned model's reading (learnedHold); and a text the rules hold
// only as an order the model reads as a record passes, the order in
// Verdict.Released (learnedRelease), as does one whose orders all lie in
// quotations the text names as an attack (namedAttack).
func Check(text string) Verdict {
	v := checkRules(text)
	if !v.Allowed {
		if f, ok := framedRefusal(text, v.Findings); ok {
			v = Verdict{Allowed: true, Orders: append([]Finding{f}, v.Orders...)}
		}
	}
	if v.Allowed && len(v.Orders) == 0 {
		if f, ok := quotedHold(text); ok {
			v.Orders = []Finding{f}
		} else if f, ok := learnedHold(text); ok && !quotedExample(text) {
			v.Orders = []Finding{f}
		}
	} else if v.Allowed {
		// The rules' reading of a quotation named as an attack comes
		// first: its words say why the orders are released.
		if w, ok := namedAttack(text, v.Orders); ok {
			for i := range v.Orders {
				v.Orders[i].Detail += fmt.Sprintf(" (quoted in a text that names it an attack: %q)", w)
			}
			v.Orders, v.Released = nil, v.Orders
		} else if r := learnedRelease(text, v.Orders); r != nil {
			v.Orders, v.Released = nil, r
		}
	}
	return v
}

// checkRules is Check without the readings of the whole text that come
// after the rules: the quoted instructions and the learned model.
func checkRules(text string) Verdict {
	var fs []Finding
	fs = append(fs, scanCharacters(text)...)

	fs = matchPatterns(fs, text)
	fs = append(fs, checkTagText(text)...)
	fs = append(fs, checkEncoded(text, 0)...)
	var orders []Finding
	kept := fs[:0]
	for _, f := range fs {
		if f.Rule == RuleOrder || f.Rule == RuleStakes {
			orders = append(orders, f)
		} else {
			kept = append(kept, f)
		}
	}
	fs = tidy(kept)
	orders = tidy(orders)
	return Verdict{Allowed: len(fs) == 0, Findings: fs, Orders: orders}
}

// matchPatterns appends to fs the findings of every pattern in text.
func matchPatterns(fs []Finding, text string) []Finding { return matchPatternsDepth(fs, text, 0) }

// matchPatternsDepth is matchPatterns on a text that is depth readings
// deep in another (the joined values of its fields).
func matchPatternsDepth(fs []Finding, text string, depth int) []Finding {
	base := normalize(text)
	lv := leetView(base)
	var buf [128]bool
	var seen []bool
	if numGroups > len(buf) {
		seen = make([]bool, numGroups)
	} else {
		seen = buf[:numGroups]
	}
	markTriggers(base.text, triggers[0], seen)
	markTriggers(lv.text, triggers[1], seen)
	for i := range patterns {
		p := &patterns[i]
		view := base
		if p.leet {
			view = lv
		}
		if p.ready(view, seen) {
			fs = p.find(fs, view, base, text)
		}
	}
	return readForms(fs, base, text, depth)
}

// readForms appends the findings of the readings by form: clauses, other
// languages, links with placeholders, fields read joined, and scripts
// other than Latin.
func readForms(fs []Finding, base *normalized, text string, depth int) []Finding {
	fs = readClauses(fs, base, text)
	for _, r := range formReaders {
		fs = r.read(fs, text, depth)
	}
	return matchForeign(fs, text)
}

// A formReader is a rule that reads the text as written rather than its
// normalised view: its name (the description its findings carry), a
// one-line doc, and the function that reads.
type formReader struct {
	name, doc string
	read      func(fs []Finding, text string, depth int) []Finding
}

// formReaders is set in init: readSplitFields reads the joined values
// with the readers themselves.
var formReaders []formReader

func init() {
	formReaders = []formReader{
		{"instruction addressed to an AI reader in another language",
			"a form of address to an AI reader and an order verb, from the word files of words/lang/, refused; an order verb on the user's things or to an address, held (\"order about the user's things in another language\")",
			func(fs []Finding, text string, _ int) []Finding { return readLanguages(fs, text) }},
		{"link with a placeholder for the conversation or a secret",
			"a link whose address holds a placeholder naming the conversation or a secret, in a text that has the reader or its answers fill it in",
			func(fs []Finding, text string, _ int) []Finding { return readPlaceholderLinks(fs, text) }},
		{"in fields read joined",
			"the values of fields named as parts (col_a, part1, k2, ...) read joined, for an order split across them",
			readSplitFields},
		{"in text written backwards",
			"a text with three or more English function words written backwards (\"eht\", \"dna\", \"ruoy\"), read turned round",
			readBackwards},
	}
}

// tidy orders findings by offset, drops a finding that repeats the rule of
// an earlier one at the same offset, and keeps at most MaxFindings, always
// including those for control characters and invalid UTF-8.
func tidy(fs []Finding) []Finding {
	if len(fs) == 0 {
		return nil
	}
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Offset != fs[j].Offset {
			return fs[i].Offset < fs[j].Offset
		}
		return fs[i].Rule < fs[j].Rule
	})
	out := fs[:0]
	for _, f := range fs {
		if n := len(out); n > 0 && out[n-1].Rule == f.Rule && out[n-1].Offset == f.Offset {
			continue
		}
		out = append(out, f)
	}
	if len(out) <= MaxFindings {
		return out
	}
	// Keep the character findings (at most one per rule, so they fit) and
	// the earliest pattern findings.
	room := MaxFindings
	for _, f := range out {
		if isCharRule(f.Rule) {
			room--
		}
	}
	kept := out[:0]
	for _, f := range out {
		if isCharRule(f.Rule) || room > 0 {
			if !isCharRule(f.Rule) {
				room--
			}
			kept = append(kept, f)
		}
	}
	return kept
}

func isCharRule(rule string) bool {
	return rule == RuleControl || rule == RuleInvalidUTF8
}

// quote returns up to quoteLimit runes of s, sanitised for one line and
// wrapped in double quotes, with an ellipsis when cut short.
func quote(s string) string {
	cut := false
	n := 0
	for i := range s {
		if n == quoteLimit {
			s, cut = s[:i], true
			break
		}
		n++
	}
	q := SanitizeLine(s)
	q = strings.ReplaceAll(q, `"`, `'`)
	if cut {
		q += "…"
	}
	return `"` + q + `"`
}

// scanCharacters reports invisible characters, control characters and
// invalid UTF-8, one finding per rule, at the first occurrence.
func scanCharacters(text string) []Finding {
	type tally struct {
		first int
		count int
		names []string
	}
	var inv, ctl, bad tally
	note := func(t *tally, at int, name string) {
		if t.count == 0 {
			t.first = at
		}
		t.count++
		if len(t.names) < 4 {
			for _, n := range t.names {
				if n == name {
					return
				}
			}
			t.names = append(t.names, name)
		}
	}
	rtl := hasRTL(text)
	prev := rune(-1)
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			note(&bad, i, fmt.Sprintf("byte 0x%02X", text[i]))
		case r == '\n' || r == '\r' || r == '\t':
		case r < 0x20 || (r >= 0x7f && r <= 0x9f):
			note(&ctl, i, controlName(r))
		case isInvisible(r):
			var next rune = -1
			if i+size < len(text) {
				next, _ = utf8.DecodeRuneInString(text[i+size:])
			}
			if !allowedJoiner(r, prev, next, rtl) {
				note(&inv, i, fmt.Sprintf("U+%04X", r))
			}
		}
		prev = r
		i += size
	}
	var fs []Finding
	if inv.count > 0 {
		fs = append(fs, Finding{Rule: RuleInvisible, Offset: inv.first,
			Detail: fmt.Sprintf("%d invisible character(s): %s", inv.count, strings.Join(inv.names, ", "))})
	}
	if ctl.count > 0 {
		fs = append(fs, Finding{Rule: RuleControl, Offset: ctl.first,
			Detail: fmt.Sprintf("%d control character(s): %s", ctl.count, strings.Join(ctl.names, ", "))})
	}
	if bad.count > 0 {
		fs = append(fs, Finding{Rule: RuleInvalidUTF8, Offset: bad.first,
			Detail: fmt.Sprintf("%d invalid UTF-8 byte(s): %s", bad.count, strings.Join(bad.names, ", "))})
	}
	return fs
}

func controlName(r rune) string {
	switch r {
	case 0x1b:
		return "ESC (escape sequence)"
	case 0x07:
		return "BEL"
	case 0x08:
		return "BS (backspace)"
	case 0x00:
		return "NUL"
	case 0x7f:
		return "DEL"
	case 0x9b:
		return "CSI (C1 escape sequence)"
	}
	return fmt.Sprintf("U+%04X", r)
}

// isInvisible reports whether r is one of the characters the gate refuses
// because it hides or reorders text: zero-width characters, bidirectional
// controls, invisible operators, the byte-order mark, tag characters and
// a few blank fillers.
func isInvisible(r rune) bool {
	switch {
	case r >= 0x200B && r <= 0x200F,
		r >= 0x202A && r <= 0x202E,
		r >= 0x2060 && r <= 0x2064,
		r >= 0x2066 && r <= 0x2069,
		r >= 0xE0000 && r <= 0xE007F:
		return true
	}
	switch r {
	case 0xFEFF, 0x180E, 0x061C, 0x115F, 0x1160, 0x3164, 0xFFA0:
		return true
	}
	return false
}

// allowedJoiner reports whether an invisible character does legitimate
// work, or none, where it stands: a zero-width joiner or non-joiner
// between two non-Latin letters or inside an emoji sequence, a
// left-to-right or right-to-left mark in text that contains right-to-left
// script, or a byte-order mark beside a space.
func allowedJoiner(r, prev, next rune, rtl bool) bool {
	switch r {
	case 0x200C, 0x200D:
		return (isEmojiPart(prev) && isEmojiPart(next)) ||
			(prev > 0x2FF && next > 0x2FF && !isInvisible(prev) && !isInvisible(next))
	case 0x200E, 0x200F:
		return rtl
	case 0xFEFF:
		// A byte-order mark beside white space, left where files or
		// template fields were joined, splits no word.
		return prev == ' ' || next == ' '
	}
	return false
}

func isEmojiPart(r rune) bool {
	return (r >= 0x1F000 && r <= 0x1FAFF) || (r >= 0x2600 && r <= 0x27BF) || r == 0xFE0F
}

// hasRTL reports whether s contains Hebrew or Arabic letters.
func hasRTL(s string) bool {
	for _, r := range s {
		if (r >= 0x0590 && r <= 0x08FF) || (r >= 0xFB1D && r <= 0xFDFF) || (r >= 0xFE70 && r <= 0xFEFC) {
			return true
		}
	}
	return false
}

// checkTagText decodes text hidden in Unicode tag characters (each tag
// U+E0020..U+E007E stands for one ASCII character) and applies the
// patterns to it, so smuggled instructions are named, not just counted.
func checkTagText(text string) []Finding {
	var fs []Finding
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r < 0xE0000 || r > 0xE007F {
			i += size
			continue
		}
		start := i
		var b strings.Builder
		for i < len(text) {
			r, size = utf8.DecodeRuneInString(text[i:])
			if r < 0xE0000 || r > 0xE007F {
				break
			}
			if r >= 0xE0020 && r <= 0xE007E {
				b.WriteByte(byte(r - 0xE0000))
			}
			i += size
		}
		hidden := b.String()
		if hidden == "" {
			continue
		}
		fs = append(fs, Finding{Rule: RuleInvisible, Offset: start,
			Detail: "hidden tag-character text " + quote(hidden)})
		for _, f := range matchPatterns(nil, hidden) {
			f.Offset = start
			f.Detail = "in hidden tag-character text: " + f.Detail
			fs = append(fs, f)
		}
	}
	return fs
}
