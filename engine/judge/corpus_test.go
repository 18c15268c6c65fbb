package judge

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

type record struct {
	Kind  string          `json:"kind"`
	A     string          `json:"a"`
	B     string          `json:"b"`
	Text  string          `json:"text"`
	Label string          `json:"label"`
	Split string          `json:"split"`
	Src   json.RawMessage `json:"source"`
	Lic   string          `json:"licence"`
}

func loadCorpus(t *testing.T, name string) []record {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "corpora", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(r.Src) == 0 || r.Lic == "" {
			t.Fatalf("%s: record without source or licence: %s", name, sc.Text())
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// confusion counts a binary classifier's outcomes.
type confusion struct{ tp, fp, tn, fn int }

func (c *confusion) add(predicted, actual bool) {
	switch {
	case predicted && actual:
		c.tp++
	case predicted && !actual:
		c.fp++
	case !predicted && actual:
		c.fn++
	default:
		c.tn++
	}
}

func (c confusion) recall() float64 {
	if c.tp+c.fn == 0 {
		return 0
	}
	return float64(c.tp) / float64(c.tp+c.fn)
}

func (c confusion) precision() float64 {
	if c.tp+c.fp == 0 {
		return 1
	}
	return float64(c.tp) / float64(c.tp+c.fp)
}

func TestContradictionCorpus(t *testing.T) {
	recs := loadCorpus(t, "contradiction.jsonl")
	var all confusion
	bySource := map[string]*confusion{}
	byRule := map[string][2]int{} // rule -> {right, wrong}
	for _, r := range recs {
		var src struct{ Dataset string }
		_ = json.Unmarshal(r.Src, &src)
		v := Contradiction(r.A, r.B)
		want := r.Label == "contradiction"
		all.add(v.Contradicts, want)
		if v.Contradicts {
			c := byRule[v.Rule]
			if want {
				c[0]++
			} else {
				c[1]++
			}
			byRule[v.Rule] = c
		}
		if bySource[src.Dataset] == nil {
			bySource[src.Dataset] = &confusion{}
		}
		bySource[src.Dataset].add(v.Contradicts, want)
		if testing.Verbose() && v.Contradicts != want {
			t.Logf("miss (%s) want %s got %v [%s]: %q / %q", src.Dataset, r.Label, v.Contradicts, v.Explanation, r.A, r.B)
		}
	}
	for name, c := range bySource {
		t.Logf("contradiction %-10s recall %.3f precision %.3f (tp %d fp %d tn %d fn %d)", name, c.recall(), c.precision(), c.tp, c.fp, c.tn, c.fn)
	}
	for rule, c := range byRule {
		t.Logf("rule %-14s fired %d times, %d on compatible pairs", rule, c[0]+c[1], c[1])
	}
	t.Logf("contradiction overall    recall %.3f precision %.3f (tp %d fp %d tn %d fn %d)", all.recall(), all.precision(), all.tp, all.fp, all.tn, all.fn)
	if all.precision() < 0.9 || all.recall() < 0.6 {
		t.Errorf("contradiction corpus: recall %.3f precision %.3f, want recall >= 0.6 at precision >= 0.9", all.recall(), all.precision())
	}
}
