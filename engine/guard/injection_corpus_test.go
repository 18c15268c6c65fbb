package guard

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestInjectionCorpus measures Check on testdata/corpora/injection.jsonl:
// prompt injections from BIPIA's training attacks and hand-written
// memory-style attacks, against benign e-mails, captions, news sentences
// and notes that merely mention instructions.
func TestInjectionCorpus(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "testdata", "corpora", "injection.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type rec struct {
		Text, Label string
		Source      struct{ Dataset string }
	}
	var tp, fp, tn, fn int
	bySrc := map[string]*[4]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r rec
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		v := Check(r.Text)
		hostile := r.Label == "injection"
		s := bySrc[r.Source.Dataset]
		if s == nil {
			s = &[4]int{}
			bySrc[r.Source.Dataset] = s
		}
		switch {
		case hostile && !v.Allowed:
			tp++
			s[0]++
		case !hostile && !v.Allowed:
			fp++
			s[1]++
			t.Logf("false positive (%s): %.120q -> %v", r.Source.Dataset, r.Text, v.Findings)
		case !hostile:
			tn++
			s[2]++
		default:
			fn++
			s[3]++
			t.Logf("false negative (%s): %.160q", r.Source.Dataset, r.Text)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for name, s := range bySrc {
		t.Logf("source %-26s tp %d fp %d tn %d fn %d", name, s[0], s[1], s[2], s[3])
	}
	recall := float64(tp) / float64(tp+fn)
	fpr := float64(fp) / float64(fp+tn)
	precision := 1.0
	if tp+fp > 0 {
		precision = float64(tp) / float64(tp+fp)
	}
	t.Logf("injection corpus: recall %.3f, precision %.3f, benign false positives %.3f (tp %d fp %d tn %d fn %d)", recall, precision, fpr, tp, fp, tn, fn)
	if recall < 0.9 || fpr > 0.03 {
		t.Errorf("injection corpus: recall %.3f, benign false positives %.3f; want recall >= 0.9 and false positives <= 0.03", recall, fpr)
	}
}
