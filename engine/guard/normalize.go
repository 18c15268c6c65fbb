package guard

import (
	"unicode"
	"unicode/utf8"
)

// normalized is a matching view of a text. Patterns run against text; every
// byte of text maps back to the byte offset in the original it came from, and
// is marked when it only exists because an evasion was undone (a homoglyph
// mapped, an invisible character dropped, spaced-out letters joined, a
// leetspeak digit read as a letter).
type normalized struct {
	text []byte
	off  []int
	obf  []bool
}

func (n *normalized) add(b byte, off int, obf bool) {
	n.text = append(n.text, b)
	n.off = append(n.off, off)
	n.obf = append(n.obf, obf)
}

// origin returns the original byte offset of normalised byte i, where i may
// equal len(text) to mean the end of the original.
func (n *normalized) origin(i int, end int) int {
	if i < len(n.off) {
		return n.off[i]
	}
	return end
}

// obfuscated reports whether any byte in text[i:j] came from undoing an
// evasion.
func (n *normalized) obfuscated(i, j int) bool {
	for k := i; k < j && k < len(n.obf); k++ {
		if n.obf[k] {
			return true
		}
	}
	return false
}

// confusables maps letters that look like Latin letters to them: the common
// Cyrillic and Greek homoglyphs, upper and lower case.
var confusables = map[rune]byte{
	// Cyrillic lower case.
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'х': 'x', 'у': 'y',
	'і': 'i', 'ј': 'j', 'ѕ': 's', 'ԁ': 'd', 'һ': 'h', 'ԛ': 'q', 'ԝ': 'w',
	// Cyrillic upper case.
	'А': 'a', 'В': 'b', 'Е': 'e', 'К': 'k', 'М': 'm', 'Н': 'h', 'О': 'o',
	'Р': 'p', 'С': 'c', 'Т': 't', 'Х': 'x', 'У': 'y', 'І': 'i', 'Ј': 'j', 'Ѕ': 's',
	// Greek.
	'α': 'a', 'ε': 'e', 'ι': 'i', 'ο': 'o', 'ρ': 'p', 'κ': 'k', 'ν': 'v', 'τ': 't', 'υ': 'u', 'χ': 'x',
	'Α': 'a', 'Β': 'b', 'Ε': 'e', 'Ζ': 'z', 'Η': 'h', 'Ι': 'i', 'Κ': 'k', 'Μ': 'm',
	'Ν': 'n', 'Ο': 'o', 'Ρ': 'p', 'Τ': 't', 'Υ': 'y', 'Χ': 'x',
}

// latinFold drops the accents of common Latin-1 letters.
var latinFold = map[rune]byte{
	'à': 'a', 'á': 'a', 'â': 'a', 'ã': 'a', 'ä': 'a', 'å': 'a',
	'è': 'e', 'é': 'e', 'ê': 'e', 'ë': 'e',
	'ì': 'i', 'í': 'i', 'î': 'i', 'ï': 'i',
	'ò': 'o', 'ó': 'o', 'ô': 'o', 'õ': 'o', 'ö': 'o',
	'ù': 'u', 'ú': 'u', 'û': 'u', 'ü': 'u', 'ñ': 'n', 'ç': 'c', 'ý': 'y',
}

// leet maps the leetspeak digits and symbols to the letters they stand for.
var leet = [256]byte{'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', '$': 's'}

// normalize builds the base matching view of s: lower case, homoglyphs and
// full-width forms mapped to ASCII, accents folded, invisible characters,
// combining marks and controls dropped, every run of white space collapsed
// to one space (or one newline if the run held a line break), and words
// spelled out letter by letter ("i g n o r e") joined up again.
func normalize(s string) *normalized {
	n := &normalized{
		text: make([]byte, 0, len(s)),
		off:  make([]int, 0, len(s)),
		obf:  make([]bool, 0, len(s)),
	}
	pendingObf := false // an invisible character was dropped just before
	space := byte(0)    // pending collapsed white space: 0, ' ' or '\n'
	spaceAt := 0
	flushSpace := func() {
		if space != 0 {
			if len(n.text) > 0 {
				n.add(space, spaceAt, false)
			}
			space = 0
		}
	}
	for i := 0; i < len(s); {
		if c := s[i]; c > ' ' && c < 0x7f {
			// Fast path: printable ASCII other than space.
			if space != 0 {
				flushSpace()
			}
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			n.add(c, i, pendingObf)
			pendingObf = false
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			r = ' '
		case r < utf8.RuneSelf:
			// handled below
		case isHidden(r) || unicode.Is(unicode.Mn, r) || (r >= 0xFE00 && r <= 0xFE0F):
			pendingObf = true
			i += size
			continue
		}
		if r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029 || r == 0x85 {
			if space == 0 {
				spaceAt = i
			}
			space = '\n'
			i += size
			continue
		}
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			if space == 0 {
				spaceAt = i
				space = ' '
			}
			i += size
			continue
		}
		flushSpace()
		obf := pendingObf
		pendingObf = false
		switch {
		case r < utf8.RuneSelf:
			c := byte(r)
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			n.add(c, i, obf)
		case r >= 0x1D400 && r <= 0x1D6A3 || r >= 0x1D7CE && r <= 0x1D7FF: // mathematical letters and digits
			n.add(mathASCII(r), i, true)
		case r >= 0xFF01 && r <= 0xFF5E: // full-width ASCII
			c := byte(r - 0xFF01 + '!')
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			n.add(c, i, true)
		default:
			if c, ok := confusables[r]; ok {
				n.add(c, i, true)
				break
			}
			lr := unicode.ToLower(r)
			if c, ok := latinFold[lr]; ok {
				n.add(c, i, obf)
				break
			}
			var buf [utf8.UTFMax]byte
			k := utf8.EncodeRune(buf[:], lr)
			for _, c := range buf[:k] {
				n.add(c, i, obf)
			}
		}
		i += size
	}
	return joinSpelled(n)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' }

func isSpellSep(c byte) bool {
	return c == ' ' || c == '.' || c == '-' || c == '_' || c == '*' || c == '\n'
}

// joinSpelled joins runs of at least two single letters separated by one
// separator each ("i g n o r e", "i.g.n.o.r.e") into one word.
func joinSpelled(n *normalized) *normalized {
	t := n.text
	// single reports whether t[i] is a letter standing alone between
	// separators (or the ends of the text).
	single := func(i int) bool {
		return i < len(t) && isLetter(t[i]) &&
			(i == 0 || isSpellSep(t[i-1])) &&
			(i+1 == len(t) || isSpellSep(t[i+1]))
	}
	var out *normalized
	for i := 0; i < len(t); i++ {
		if !single(i) {
			if out != nil {
				out.add(t[i], n.off[i], n.obf[i])
			}
			continue
		}
		// Count the run of single letters starting at i.
		k := i
		count := 1
		for k+2 < len(t) && isSpellSep(t[k+1]) && single(k+2) {
			k += 2
			count++
		}
		if count < 2 {
			if out != nil {
				out.add(t[i], n.off[i], n.obf[i])
			}
			continue
		}
		if out == nil {
			out = &normalized{
				text: append(make([]byte, 0, len(t)), t[:i]...),
				off:  append(make([]int, 0, len(t)), n.off[:i]...),
				obf:  append(make([]bool, 0, len(t)), n.obf[:i]...),
			}
		}
		// Letters of one word stand one separator apart in the original;
		// a wider gap there ("i g n o r e   a l l") ends a word.
		minGap := -1
		for j := i; j < k; j += 2 {
			if g := n.off[j+2] - n.off[j]; minGap < 0 || g < minGap {
				minGap = g
			}
		}
		// Letters joined by a mark ("d-e-l-e-t-e t-h-e") keep the spaces
		// between them as the ends of words.
		marked := false
		for j := i; j < k; j += 2 {
			if t[j+1] != ' ' && t[j+1] != '\n' {
				marked = true
			}
		}
		for j := i; j <= k; j += 2 {
			out.add(t[j], n.off[j], true)
			if j < k && (n.off[j+2]-n.off[j] > minGap || marked && (t[j+1] == ' ' || t[j+1] == '\n')) {
				out.add(' ', n.off[j+1], true)
			}
		}
		i = k
	}
	if out == nil {
		return n
	}
	return out
}

// leetView returns a copy of the base view in which leetspeak digits and
// symbols are read as letters inside every word that mixes them with letters
// ("1gn0r3", "pr3v10us") and in every word made only of them ("70" for
// "to"). Other words ("2024", "v2") are left alone. The copy has the same length, so it
// shares the offsets of the base view.
func leetView(n *normalized) *normalized {
	t := n.text
	out := &normalized{text: make([]byte, len(t)), off: n.off, obf: n.obf}
	copy(out.text, t)
	changed := false
	inWord := func(c byte) bool {
		return isLetter(c) || (c >= '0' && c <= '9') || c == '@' || c == '$'
	}
	for i := 0; i < len(t); {
		if !inWord(t[i]) {
			i++
			continue
		}
		j := i
		letters, leets, others := 0, 0, 0
		for j < len(t) && inWord(t[j]) {
			switch {
			case isLetter(t[j]):
				letters++
			case leet[t[j]] != 0:
				leets++
			default:
				others++
			}
			j++
		}
		if leets > 0 && (letters > 0 || others == 0) {
			if !changed {
				out.obf = append([]bool(nil), n.obf...)
				changed = true
			}
			for k := i; k < j; k++ {
				if c := leet[t[k]]; c != 0 {
					out.text[k] = c
					out.obf[k] = true
				}
			}
		}
		i = j
	}
	return out
}

// mathASCII maps a letter or digit of the Mathematical Alphanumeric
// Symbols block (bold, italic, script, ... "𝐒𝐞𝐧𝐝") to its lower-case ASCII
// form: the letters run in styles of 52 (A-Z, a-z), the digits in styles
// of 10.
func mathASCII(r rune) byte {
	if r >= 0x1D7CE {
		return byte('0' + (r-0x1D7CE)%10)
	}
	k := (r - 0x1D400) % 52
	if k >= 26 {
		k -= 26
	}
	return byte('a' + k)
}
