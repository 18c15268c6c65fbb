package guard

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// decodeLine turns the escapes used in the corpus files into the characters
// they stand for: \n, \t, \r, \\, \xHH (one raw byte), \uHHHH and
// \UHHHHHHHH. Any other backslash is kept as written, so the files can hold
// Windows paths and JSON with escaped quotes.
func decodeLine(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		hex := func(n int) (uint64, bool) {
			if i+2+n > len(s) {
				return 0, false
			}
			v, err := strconv.ParseUint(s[i+2:i+2+n], 16, 32)
			return v, err == nil
		}
		switch s[i+1] {
		case 'n':
			b.WriteByte('\n')
			i++
		case 't':
			b.WriteByte('\t')
			i++
		case 'r':
			b.WriteByte('\r')
			i++
		case '\\':
			b.WriteByte('\\')
			i++
		case 'x':
			if v, ok := hex(2); ok {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
			b.WriteByte('\\')
		case 'u':
			if v, ok := hex(4); ok {
				b.WriteRune(rune(v))
				i += 5
				continue
			}
			b.WriteByte('\\')
		case 'U':
			if v, ok := hex(8); ok {
				b.WriteRune(rune(v))
				i += 9
				continue
			}
			b.WriteByte('\\')
		default:
			b.WriteByte('\\')
		}
	}
	return b.String()
}

func TestDecodeLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{`plain`, "plain"},
		{`a\nb\tc\rd`, "a\nb\tc\rd"},
		{`\x1b[31m`, "\x1b[31m"},
		{`zero\u200bwidth`, "zero\u200bwidth"},
		{`tag\U000e0041`, "tag\U000e0041"},
		{`C:\Users\bob`, `C:\Users\bob`},
		{`{\"cmd\": 1}`, `{\"cmd\": 1}`},
		{`a\\nb`, `a\nb`},
		{`end\`, `end\`},
	}
	for _, tt := range tests {
		if got := decodeLine(tt.in); got != tt.want {
			t.Errorf("decodeLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func readCorpus(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("open corpus: %v", err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		// A line opening with "# " is a comment: the files of the probe
		// split say where their texts come from.
		if line := sc.Text(); strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "# ") {
			lines = append(lines, decodeLine(line))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return lines
}

// score counts the confusion matrix of Check over a benign and a hostile
// corpus, hostile being the positive class, and reports each mistake.
func score(t *testing.T, split string, benign, hostile []string) (precision, recall float64) {
	t.Helper()
	var tp, fp, fn int
	for _, s := range benign {
		if v := Check(s); !v.Allowed {
			fp++
			t.Logf("%s false positive: %q -> %v", split, s, v.Findings)
		}
	}
	for _, s := range hostile {
		if v := Check(s); v.Allowed {
			fn++
			t.Logf("%s false negative: %q", split, s)
		} else {
			tp++
		}
	}
	precision, recall = 1, 1
	if tp+fp > 0 {
		precision = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		recall = float64(tp) / float64(tp+fn)
	}
	return precision, recall
}

func TestCorpus(t *testing.T) {
	splits := []struct {
		name            string
		benign, hostile string
	}{
		{"tuning", "benign.txt", "hostile.txt"},
		{"holdout", "benign_holdout.txt", "hostile_holdout.txt"},
		// probe: written after the rules above were set, to find what they
		// missed; the rules were then widened for the attacks found.
		{"probe", "probe_benign.txt", "probe_hostile.txt"},
	}
	for _, sp := range splits {
		t.Run(sp.name, func(t *testing.T) {
			benign := readCorpus(t, sp.benign)
			hostile := readCorpus(t, sp.hostile)
			if len(benign) < 50 || len(hostile) < 50 {
				t.Fatalf("corpus too small: %d benign, %d hostile", len(benign), len(hostile))
			}
			p, r := score(t, sp.name, benign, hostile)
			t.Logf("%s split: %d benign, %d hostile: precision %.3f, recall %.3f",
				sp.name, len(benign), len(hostile), p, r)
			if p < 0.97 {
				t.Errorf("%s precision = %.3f, want >= 0.97", sp.name, p)
			}
			if r < 0.90 {
				t.Errorf("%s recall = %.3f, want >= 0.90", sp.name, r)
			}
		})
	}
}
