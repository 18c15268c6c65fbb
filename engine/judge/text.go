package judge

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// A token is one word, number or symbol of a text.
type token struct {
	text string // as written, typographic variants folded
	low  string // lower case
}

func (t token) capitalized() bool {
	for _, r := range t.text {
		return unicode.IsUpper(r)
	}
	return false
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// foldRune maps typographic variants to ASCII.
func foldRune(r rune) rune {
	switch r {
	case '\u2018', '\u2019', '\u02bc', '\u2032':
		return '\''
	case '\u201c', '\u201d':
		return '"'
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2212':
		return '-'
	case '\u00a0', '\u2009', '\u202f':
		return ' '
	}
	return r
}

// tokenize splits text into tokens. Internal apostrophes, hyphens, dots,
// commas, colons and slashes stay inside a token when both neighbours are
// letters or digits ("o'brien", "left-handed", "4.2", "2,000", "09:40",
// "31/12/2025", "2025-03-03"); a possessive "'s" and the contraction "n't"
// become tokens of their own; currency signs and % are tokens.
func tokenize(text string) []token {
	rs := []rune(text)
	for i, r := range rs {
		rs[i] = foldRune(r)
	}
	var out []token
	emit := func(s string) {
		if s == "" {
			return
		}
		low := strings.ToLower(s)
		// Split possessives and negative contractions.
		switch {
		case strings.HasSuffix(low, "n't") && len(low) > 3:
			stem := s[:len(s)-3]
			switch strings.ToLower(stem) {
			case "wo":
				stem = "will"
			case "ca":
				stem = "can"
			case "sha":
				stem = "shall"
			}
			out = append(out, token{stem, strings.ToLower(stem)}, token{"n't", "n't"})
			return
		case strings.HasSuffix(low, "'s") && len(low) > 2:
			out = append(out, token{s[:len(s)-2], low[:len(low)-2]}, token{"'s", "'s"})
			return
		case strings.HasSuffix(low, "s'") && len(low) > 2:
			out = append(out, token{s[:len(s)-1], low[:len(low)-1]}, token{"'s", "'s"})
			return
		}
		out = append(out, token{s, low})
	}
	start := -1
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && strings.ContainsRune("'-.,:/@_", r) && i+1 < len(rs) && isWordRune(rs[i+1]) {
			// Keep a comma or colon only between digits.
			if (r == ',' || r == ':' || r == '/') && !(unicode.IsDigit(rs[i-1]) && unicode.IsDigit(rs[i+1])) {
				emit(string(rs[start:i]))
				start = -1
				if r != ',' && r != ':' {
					emit(string(r))
				}
				continue
			}
			continue
		}
		if start >= 0 {
			emit(string(rs[start:i]))
			start = -1
		}
		if r == '\'' && i+1 < len(rs) && (rs[i+1] == 's' || rs[i+1] == 'S') && (i+2 == len(rs) || !isWordRune(rs[i+2])) {
			out = append(out, token{"'s", "'s"})
			i++
			continue
		}
		switch {
		case unicode.IsSpace(r):
		case r == '$' || r == '€' || r == '£' || r == '¥' || r == '%':
			out = append(out, token{string(r), string(r)})
		default:
			out = append(out, token{string(r), string(r)})
		}
	}
	if start >= 0 {
		emit(string(rs[start:]))
	}
	return out
}

// ValueKind says what a value is.
type ValueKind int

// Kinds of Value.
const (
	KindText ValueKind = iota
	KindNumber
	KindMoney
	KindPercent
	KindDate
	KindTime
)

func (k ValueKind) String() string {
	switch k {
	case KindNumber:
		return "number"
	case KindMoney:
		return "money"
	case KindPercent:
		return "percent"
	case KindDate:
		return "date"
	case KindTime:
		return "time"
	}
	return "text"
}

// A Value is the normalised object of a claim, or a quantity in a text.
type Value struct {
	Kind ValueKind
	// Text is the canonical form: "2000 usd", "15%", "2025-03-03",
	// "09:40", "34 year", or the value's content words, lower case.
	Text string
	// Num is the amount of a number, money or percent value, the minutes
	// after midnight of a time.
	Num float64
	// Unit is the currency of money ("usd"), the counted noun of a number
	// ("child", "gb"), empty otherwise.
	Unit string
	// Year, Month and Day of a date; 0 when the text does not say.
	Year, Month, Day int
	// Weekday of a date named by its day of the week, 1 (Monday) to 7.
	Weekday int
	// Words are the content words of a text value, lemmatised.
	Words []string
	// Lows are the same words as written, lower case.
	Lows []string
	// Proper is true when a text value starts with a capital letter (a
	// name).
	Proper bool
}

var smallNumbers = numberPairs("number-words")

var ordinals = orderClass("ordinals", 1)

var multipliers = numberPairs("multipliers")

var currencyWords = wordPairs("currency-words")

var months = func() map[string]int {
	m := map[string]int{}
	for i, name := range wordList("months") {
		m[name] = i + 1
	}
	for _, a := range wordList("month-abbreviations") {
		for i, name := range wordList("months") {
			if strings.HasPrefix(name, a) {
				m[a] = i + 1
			}
		}
	}
	return m
}()

// parseDigits parses "2,000", "4.2", "3rd", "12th" as a number.
func parseDigits(s string) (float64, bool) {
	s = strings.TrimSuffix(s, ".")
	if s == "" || s[0] < '0' || s[0] > '9' {
		// Not a number (taking a suffix off below leaves the first byte).
		return 0, false
	}
	for _, suf := range wordList("ordinal-suffixes") {
		if strings.HasSuffix(s, suf) && len(s) > len(suf) && s[len(s)-len(suf)-1] >= '0' && s[len(s)-len(suf)-1] <= '9' {
			s = s[:len(s)-len(suf)]
			break
		}
	}
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, false
	}
	if strings.Contains(s, ",") {
		parts := strings.Split(s, ",")
		for _, p := range parts[1:] {
			q := p
			if i := strings.IndexByte(q, '.'); i >= 0 {
				q = q[:i]
			}
			if len(q) != 3 {
				return 0, false
			}
		}
		s = strings.ReplaceAll(s, ",", "")
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// wordNumber parses number words starting at toks[i]: "thirty-four",
// "twenty five", "one hundred". It returns the value and tokens used.
func wordNumber(toks []token, i int) (float64, int) {
	total, cur := 0.0, 0.0
	n := 0
	for j := i; j < len(toks); j++ {
		w := toks[j].low
		if strings.Contains(w, "-") {
			parts := strings.Split(w, "-")
			a, ok1 := smallNumbers[parts[0]]
			b, ok2 := smallNumbers[parts[len(parts)-1]]
			if len(parts) == 2 && ok1 && ok2 && a >= 20 && b < 10 {
				cur += a + b
				n = j - i + 1
				continue
			}
			break
		}
		if v, ok := smallNumbers[w]; ok {
			cur += v
			n = j - i + 1
			continue
		}
		if w == "and" && n > 0 && j+1 < len(toks) {
			if _, ok := smallNumbers[toks[j+1].low]; ok {
				continue
			}
			break
		}
		if m, ok := multipliers[w]; ok && n > 0 && len(w) > 2 {
			if m == 100 {
				cur *= 100
			} else {
				total += cur * m
				cur = 0
			}
			n = j - i + 1
			continue
		}
		break
	}
	return total + cur, n
}

// quantityAt reads a number, money amount, percentage, date or time at
// toks[i]. It returns the value and the number of tokens used, or 0.
func quantityAt(toks []token, i int) (Value, int) {
	if i >= len(toks) {
		return Value{}, 0
	}
	if v, n := dateAt(toks, i); n > 0 {
		return v, n
	}
	if v, n := timeAt(toks, i); n > 0 {
		return v, n
	}
	j := i
	currency := ""
	if c, ok := currencyWords[toks[j].low]; ok && (toks[j].low == "$" || toks[j].low == "€" || toks[j].low == "£" || toks[j].low == "¥" || toks[j].low == "a$" || toks[j].low == "us$" || toks[j].low == "c$") {
		currency = c
		j++
	}
	if j >= len(toks) {
		return Value{}, 0
	}
	num, ok := parseDigits(toks[j].low)
	used := 1
	glued := ""
	if !ok {
		// "64gb", "25mb", "3kg": a number with its unit attached.
		low := toks[j].low
		k := 0
		for k < len(low) && (low[k] >= '0' && low[k] <= '9' || low[k] == '.') {
			k++
		}
		if k > 0 && k < len(low) && isUnitWord(low[k:]) && !isMeridiem(low[k:]) {
			if v, ok2 := parseDigits(low[:k]); ok2 {
				num, ok, glued = v, true, unitLemma(low[k:])
			}
		}
	}
	if !ok {
		// "A$4.56" written as one token.
		low := toks[j].low
		for _, p := range dollarSigns {
			if strings.HasPrefix(low, p) {
				if v, ok2 := parseDigits(low[len(p):]); ok2 {
					num, ok, currency = v, true, currencyWords[p]
				}
			}
		}
	}
	if !ok {
		if v, isOrd := ordinals[toks[j].low]; isOrd && j+1 < len(toks) && isUnitWord(toks[j+1].low) && currency == "" {
			// "the third floor", "the 2nd round".
			num, ok = v, true
		}
	}
	if !ok {
		// A fraction alone: "¾ of an hour".
		if f, isFrac := vulgarFractions[toks[j].low]; isFrac {
			num, ok = f, true
		}
	}
	if !ok {
		num, used = wordNumber(toks, j)
		if used == 0 {
			return Value{}, 0
		}
		// "a hundred", but not a lone "one" used as a pronoun.
		if used == 1 && toks[j].low == "one" && currency == "" {
			if j+1 >= len(toks) || !isCountNoun(toks[j+1].low) {
				return Value{}, 0
			}
		}
	}
	j += used
	if j < len(toks) && used == 1 && num == float64(int64(num)) && num >= 0 {
		// A mixed number: "2 ½", "2½", "2 1/2".
		if f, ok := fractionOf(toks[j].low); ok {
			num += f
			j++
		}
	}
	if j < len(toks) {
		if m, ok := multipliers[toks[j].low]; ok && (len(toks[j].low) > 2 || currency != "") {
			num *= m
			j++
		}
	}
	v := Value{Kind: KindNumber, Num: num, Unit: glued}
	if c, ok := currencyWords[glued]; ok {
		v.Kind, v.Unit = KindMoney, c
	}
	switch {
	case glued != "":
		// The unit came with the number ("64gb").
	case currency != "":
		v.Kind, v.Unit = KindMoney, currency
	case j < len(toks):
		if c, ok := currencyWords[toks[j].low]; ok {
			v.Kind, v.Unit = KindMoney, c
			j++
		} else if toks[j].low == "%" || toks[j].low == "percent" || toks[j].low == "pct" {
			v.Kind = KindPercent
			j++
		} else if toks[j].low == "per" && j+1 < len(toks) && toks[j+1].low == "cent" {
			v.Kind = KindPercent
			j += 2
		}
	}
	if v.Kind == KindNumber && v.Unit == "" && j < len(toks) && isUnitWord(toks[j].low) {
		v.Unit = unitLemma(toks[j].low)
		j++
	}
	v.Text = v.canonical()
	return v, j - i
}

func isCountNoun(w string) bool {
	return len(w) > 2 && !stopWords[w] && w != "of"
}

// isUnitWord reports whether w may name what a number counts.
func isUnitWord(w string) bool {
	if w == "" || stopWords[w] || w == "of" || w == "and" || w == "or" || cutWords[w] || adverbOpeners[w] {
		// "in 2019 after leaving": a preposition or a clause opener
		// starts what follows the number.
		return false
	}
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

var unitAliases = wordPairs("unit-aliases")

func unitLemma(w string) string {
	if a, ok := unitAliases[w]; ok {
		return a
	}
	return stem(w)
}

// dateAt reads a date at toks[i]: 2025-03-03, 31/12/2025, "3 March 2025",
// "March 3, 2025", "12 May", "May 12", "January 2023".
func dateAt(toks []token, i int) (Value, int) {
	t := toks[i].low
	if wd, ok := weekdays[strings.TrimSuffix(t, "s")]; ok {
		v := Value{Kind: KindDate, Weekday: wd}
		v.Text = v.canonical()
		return v, 1
	}
	// ISO 8601.
	if len(t) == 10 && t[4] == '-' && t[7] == '-' {
		y, e1 := strconv.Atoi(t[:4])
		m, e2 := strconv.Atoi(t[5:7])
		d, e3 := strconv.Atoi(t[8:])
		if e1 == nil && e2 == nil && e3 == nil && m >= 1 && m <= 12 && d >= 1 && d <= 31 {
			return date(y, m, d), 1
		}
	}
	// Day/month/year with slashes or dots: day first unless the first
	// field cannot be a day's month partner (US order when the second
	// field exceeds 12).
	for _, sep := range []string{"/", "."} {
		if strings.Count(t, sep) != 2 {
			continue
		}
		if p := strings.Split(t, sep); len(p) == 3 && len(p[2]) >= 2 && len(p[0]) <= 2 && len(p[1]) <= 2 {
			a, e1 := strconv.Atoi(p[0])
			b, e2 := strconv.Atoi(p[1])
			y, e3 := strconv.Atoi(p[2])
			if e1 == nil && e2 == nil && e3 == nil {
				if y < 100 {
					y += 2000
				}
				d, m := a, b
				if b > 12 && a <= 12 {
					d, m = b, a
				}
				if m >= 1 && m <= 12 && d >= 1 && d <= 31 {
					return date(y, m, d), 1
				}
			}
		}
	}
	// Day Month [Year].
	if d, ok := parseDigits(t); ok && d >= 1 && d <= 31 && d == math.Trunc(d) && i+1 < len(toks) {
		j := i + 1
		if toks[j].low == "of" && j+1 < len(toks) {
			j++
		}
		if m, ok := months[strings.TrimSuffix(toks[j].low, ".")]; ok && !(toks[j].low == "may" && !toks[j].capitalized()) {
			j++
			y := 0
			if j < len(toks) && toks[j].low == "," {
				j++
			}
			if j < len(toks) {
				if yy, ok := parseYear(toks[j].low); ok {
					y = yy
					j++
				}
			}
			return date(y, m, int(d)), j - i
		}
	}
	// A month on its own, capitalised: "in October".
	// "Sept. 2003": an abbreviated month and its dot.
	abbrev := len(t) <= 4 && t != "may" && t != "june" && t != "july"
	dotted := abbrev && i+2 < len(toks) && toks[i+1].low == "." && isDigitWord(toks[i+2].low)
	if m, ok := months[t]; ok && len(t) > 3 && toks[i].capitalized() && (i+1 == len(toks) || !isDigitWord(toks[i+1].low)) && !dotted {
		v := Value{Kind: KindDate, Month: m}
		v.Text = v.canonical()
		return v, 1
	}
	// Month Day[,] [Year] or Month Year.
	if m, ok := months[strings.TrimSuffix(t, ".")]; ok && i+1 < len(toks) && (toks[i].capitalized() || len(t) > 3 && t != "march" && t != "may") {
		j := i + 1
		if toks[j].low == "." && abbrev && j+1 < len(toks) {
			// "Nov. 11": the abbreviation's dot.
			j++
		}
		if yy, ok := parseYear(toks[j].low); ok {
			return date(yy, m, 0), j + 1 - i
		}
		if d, ok := parseDigits(toks[j].low); ok && d >= 1 && d <= 31 && d == math.Trunc(d) {
			j++
			y := 0
			k := j
			if k < len(toks) && toks[k].low == "," {
				k++
			}
			if k < len(toks) {
				if yy, ok := parseYear(toks[k].low); ok {
					y = yy
					j = k + 1
				}
			}
			return date(y, m, int(d)), j - i
		}
	}
	return Value{}, 0
}

func isDigitWord(s string) bool {
	return s != "" && s[0] >= '0' && s[0] <= '9'
}

// dollarSigns are the currency signs of currencyWords written as letters
// and a dollar sign ("A$"), read where they open a token ("A$4.56").
var dollarSigns = func() []string {
	var out []string
	for w := range currencyWords {
		if len(w) > 1 && strings.HasSuffix(w, "$") {
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}()

var weekdays = func() map[string]int {
	m := map[string]int{}
	for i, d := range wordList("weekdays") {
		m[d] = i + 1
	}
	return m
}()

func parseYear(s string) (int, bool) {
	if len(s) != 4 {
		return 0, false
	}
	y, err := strconv.Atoi(s)
	if err != nil || y < 1000 || y > 2200 {
		return 0, false
	}
	return y, true
}

func date(y, m, d int) Value {
	v := Value{Kind: KindDate, Year: y, Month: m, Day: d}
	v.Text = v.canonical()
	return v
}

// timeAt reads a clock time: 09:40, 9:40 am, 8 am, 3 p.m.
func timeAt(toks []token, i int) (Value, int) {
	t := toks[i].low
	h, m := -1, 0
	used := 1
	if c := strings.IndexByte(t, ':'); c > 0 && c <= 2 && len(t) == c+3 {
		hh, e1 := strconv.Atoi(t[:c])
		mm, e2 := strconv.Atoi(t[c+1:])
		if e1 != nil || e2 != nil || hh > 23 || mm > 59 {
			return Value{}, 0
		}
		h, m = hh, mm
	} else if hh, err := atoi(t); err == nil && hh >= 1 && hh <= 12 && i+1 < len(toks) && isMeridiem(toks[i+1].low) {
		h = hh
	} else if len(t) > 2 && (strings.HasSuffix(t, "am") || strings.HasSuffix(t, "pm")) {
		hh, err := strconv.Atoi(t[:len(t)-2])
		if err != nil || hh < 1 || hh > 12 {
			return Value{}, 0
		}
		h = hh
		if strings.HasSuffix(t, "pm") && h != 12 {
			h += 12
		} else if strings.HasSuffix(t, "am") && h == 12 {
			h = 0
		}
		v := Value{Kind: KindTime, Num: float64(h*60 + m)}
		v.Text = v.canonical()
		return v, 1
	} else {
		return Value{}, 0
	}
	if i+1 < len(toks) && isMeridiem(toks[i+1].low) {
		pm := strings.HasPrefix(toks[i+1].low, "p")
		if pm && h < 12 {
			h += 12
		} else if !pm && h == 12 {
			h = 0
		}
		used++
	}
	v := Value{Kind: KindTime, Num: float64(h*60 + m)}
	v.Text = v.canonical()
	return v, used
}

func isMeridiem(w string) bool {
	switch w {
	case "am", "pm", "a.m", "p.m", "a.m.", "p.m.":
		return true
	}
	return false
}

func (v Value) canonical() string {
	switch v.Kind {
	case KindMoney:
		return formatNum(v.Num) + " " + v.Unit
	case KindPercent:
		return formatNum(v.Num) + "%"
	case KindNumber:
		if v.Unit != "" {
			return formatNum(v.Num) + " " + v.Unit
		}
		return formatNum(v.Num)
	case KindDate:
		if v.Weekday != 0 && v.Year == 0 && v.Month == 0 && v.Day == 0 {
			return wordList("weekdays")[v.Weekday-1][:3]
		}
		part := func(n, w int) string {
			if n == 0 {
				return strings.Repeat("?", w)
			}
			return fmt.Sprintf("%0*d", w, n)
		}
		return part(v.Year, 4) + "-" + part(v.Month, 2) + "-" + part(v.Day, 2)
	case KindTime:
		return fmt.Sprintf("%02d:%02d", int(v.Num)/60, int(v.Num)%60)
	}
	return v.Text
}

func formatNum(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// stopWords are function words that carry no content for comparison.
var stopWords = boolClass("stop-words")

// negators mark a negated clause.
var negators = boolClass("negators")

// stem reduces a lower-case word to a crude stem: irregular forms through
// the lexicon, then the regular plural, past and gerund endings.
func stem(w string) string {
	if l := DefaultLexicon().Lemma(w); l != w {
		return l
	}
	n := len(w)
	if n <= 3 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && n > 4:
		return w[:n-3] + "y"
	case strings.HasSuffix(w, "sses"):
		return w[:n-2]
	case strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "xes"):
		return w[:n-2]
	case strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") || strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "ing") && n > 5:
		return trimDouble(w[:n-3])
	case strings.HasSuffix(w, "ied") && n > 4:
		return w[:n-3] + "y"
	case strings.HasSuffix(w, "ed") && n > 4:
		return trimDouble(w[:n-2])
	case strings.HasSuffix(w, "s") && n > 3:
		return w[:n-1]
	}
	return w
}

// trimDouble undoes a doubled final consonant ("stopp" -> "stop") and
// drops a final e so that "liked", "likes" and "like" meet at "lik".
func trimDouble(s string) string {
	n := len(s)
	if n >= 3 && s[n-1] == s[n-2] && !strings.ContainsRune("aeiouls", rune(s[n-1])) {
		return s[:n-1]
	}
	return s
}

// normWord returns the comparison form of a word: stemmed, with a final
// silent e removed so inflections meet.
func normWord(w string) string {
	s := stem(w)
	if len(s) > 3 && strings.HasSuffix(s, "e") && !strings.HasSuffix(s, "ee") {
		s = s[:len(s)-1]
	}
	return s
}

// vulgarFractions are the fractions written as one character.
var vulgarFractions = numberPairs("vulgar-fractions")

// fractionOf reads the fraction part of a mixed number: a vulgar fraction
// or "a/b" with 0 < a < b <= 16.
func fractionOf(s string) (float64, bool) {
	if f, ok := vulgarFractions[s]; ok {
		return f, true
	}
	a, b, ok := strings.Cut(s, "/")
	if !ok {
		return 0, false
	}
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || x <= 0 || y > 16 || x >= y {
		return 0, false
	}
	return float64(x) / float64(y), true
}

// errNotInt is atoi's error for a word that does not open as a number.
var errNotInt = errors.New("not an integer")

// atoi is strconv.Atoi, answering a word that cannot be an integer (one
// that opens with neither a digit nor a sign) without building an error
// for it: most words a text holds.
func atoi(s string) (int, error) {
	if s == "" || (s[0] < '0' || s[0] > '9') && s[0] != '+' && s[0] != '-' {
		return 0, errNotInt
	}
	return strconv.Atoi(s)
}
