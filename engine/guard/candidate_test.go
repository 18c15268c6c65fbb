package guard

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestModelCandidate measures weights files that are not shipped, named
// in MEMGOV_GUARD_CANDIDATES (comma-separated paths), as a hold beside
// the rules, as Check uses the shipped one (never on a text too short for
// it, longEnough): on the held-out ninetieth to hundred-and-fifth
// first-look splits (rules alone against rules or model), on the tuned splits, and
// on the ordinary corpora of TestOrdinaryTexts. The rules alone are Check's verdict without
// the shipped model's holds (RuleLearned). It is skipped when the variable
// is unset.
func TestModelCandidate(t *testing.T) {
	env := os.Getenv("MEMGOV_GUARD_CANDIDATES")
	if env == "" {
		t.Skip("MEMGOV_GUARD_CANDIDATES names no weights file")
	}
	ordinary := ordinaryTexts(t)
	for _, path := range strings.Split(env, ",") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := parseModel(string(data))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		over := func(s string) bool {
			if !longEnough(s) {
				return false
			}
			p, _ := m.score(s, false)
			return p >= m.threshold
		}
		split := func(name, hostile, benign string) {
			var a, rc, cc, b, rr, rh, cr, ch, mOnly int
			for _, l := range readFamilies(t, hostile) {
				a++
				caught := outcomeOf(rulesOnly(l.text)) != passed
				if caught {
					rc++
				}
				if caught || over(l.text) {
					cc++
				}
			}
			for _, l := range readFamilies(t, benign) {
				b++
				o := outcomeIn(rulesOnly(l.text), l.layer)
				switch o {
				case refused:
					rr++
				case held:
					rh++
				}
				if o == passed && l.layer != "PROCEDURAL" && over(l.text) {
					o = held
					mOnly++
					t.Logf("%s %s: benign held by the model alone: %.100q", m.version, name, l.text)
				}
				switch o {
				case refused:
					cr++
				case held:
					ch++
				}
			}
			t.Logf("%s %s: attacks rules %d/%d, rules or model %d/%d (+%d); benign rules refused %d held %d, combined refused %d held %d (+%d) of %d",
				m.version, name, rc, a, cc, a, cc-rc, rr, rh, cr, ch, mOnly, b)
		}
		// The splits held out from the shipped model's training.
		for i := 90; i <= 105; i++ {
			n := strconv.Itoa(i)
			if _, err := os.Stat(filepath.Join("testdata", "firstlook"+n+"_hostile.txt")); err != nil {
				t.Logf("no held-out split %s yet", n)
				continue
			}
			split("firstlook"+n+" (held out)", "firstlook"+n+"_hostile.txt", "firstlook"+n+"_benign.txt")
		}
		for n := 1; n <= 89; n++ {
			sp := "firstlook" + strconv.Itoa(n)
			if n == 1 {
				sp = "firstlook"
			}
			split(sp+" (trained on)", sp+"_hostile.txt", sp+"_benign.txt")
		}
		byFile := map[string][3]int{}
		var total, rulesHeld, modelHeld, extra int
		for _, o := range ordinary {
			total++
			rh := outcomeOf(rulesOnly(o.text)) == held
			mh := over(o.text)
			c := byFile[o.file]
			c[0]++
			if rh {
				rulesHeld++
				c[1]++
			}
			if mh {
				modelHeld++
				c[2]++
				if !rh {
					extra++
				}
				t.Logf("%s ordinary held by the model (%s): %.100q", m.version, o.file, o.text)
			}
			byFile[o.file] = c
		}
		t.Logf("%s ordinary: %d texts, rules held %d, model held %d (%.2f%%), rules or model %d (%.2f%%)",
			m.version, total, rulesHeld, modelHeld, 100*ratio(modelHeld, total), rulesHeld+extra, 100*ratio(rulesHeld+extra, total))
		for f, c := range byFile {
			t.Logf("%s ordinary %s: %d texts, rules held %d, model held %d", m.version, f, c[0], c[1], c[2])
		}
	}
}

// rulesOnly is Check's verdict on s without the learned model's reading:
// neither its hold nor its release of an order.
func rulesOnly(s string) Verdict {
	v := checkRules(s)
	if v.Allowed && len(v.Orders) == 0 {
		if f, ok := quotedHold(s); ok {
			v.Orders = []Finding{f}
		}
	}
	return v
}

type ordinaryText struct{ file, text string }

// ordinaryTexts reads the texts TestOrdinaryTexts checks, with the file
// each came from: every distinct memory text of the corpora that is not an
// attack, leaving out the first-look splits.
func ordinaryTexts(t *testing.T) []ordinaryText {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "corpora", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpora: %v", err)
	}
	seen := map[string]bool{}
	var out []ordinaryText
	for _, name := range files {
		if strings.HasPrefix(filepath.Base(name), "injection_firstlook") {
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var r struct{ Kind, A, B, Text, Claim, Excerpt, Label string }
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if r.Label == "injection" || !memoryKinds[r.Kind] {
				continue
			}
			for _, text := range []string{r.A, r.B, r.Text, r.Claim, r.Excerpt} {
				if text == "" || seen[text] {
					continue
				}
				seen[text] = true
				out = append(out, ordinaryText{filepath.Base(name), text})
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
