package host_test

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"os"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/internal/enginetest"
)

// corpusRecord is one line of testdata/corpora/retrieval_squad.jsonl: a
// passage (a sentence of a SQuAD 2.0 training paragraph) or a question with
// the passages holding its answer.
type corpusRecord struct {
	Kind     string   `json:"kind"`
	ID       string   `json:"id"`
	Text     string   `json:"text"`
	Question string   `json:"question"`
	Evidence []string `json:"evidence"`
}

func loadRetrievalCorpus(t *testing.T) (passages, questions []corpusRecord) {
	t.Helper()
	f, err := os.Open("../testdata/corpora/retrieval_squad.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r corpusRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		switch r.Kind {
		case "passage":
			passages = append(passages, r)
		case "question":
			questions = append(questions, r)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return passages, questions
}

// okapi is a plain Okapi BM25 (k1 1.2, b 0.75; words are runs of letters
// and digits, lower-cased; no stop words, no stemming), the reference the
// hybrid search is measured against.
type okapi struct {
	ids    []string
	tf     []map[string]int
	length []int
	df     map[string]int
	avg    float64
}

func okapiWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func newOkapi(ids, texts []string) *okapi {
	o := &okapi{ids: ids, df: map[string]int{}}
	total := 0
	for _, t := range texts {
		tf := map[string]int{}
		ws := okapiWords(t)
		for _, w := range ws {
			tf[w]++
		}
		for w := range tf {
			o.df[w]++
		}
		o.tf = append(o.tf, tf)
		o.length = append(o.length, len(ws))
		total += len(ws)
	}
	o.avg = float64(total) / float64(len(texts))
	return o
}

func (o *okapi) search(q string, k int) []string {
	const k1, b = 1.2, 0.75
	n := float64(len(o.ids))
	seen := map[string]bool{}
	score := make([]float64, len(o.ids))
	for _, w := range okapiWords(q) {
		if seen[w] || o.df[w] == 0 {
			continue
		}
		seen[w] = true
		df := float64(o.df[w])
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for d, tf := range o.tf {
			if f := float64(tf[w]); f > 0 {
				score[d] += idf * f * (k1 + 1) / (f + k1*(1-b+b*float64(o.length[d])/o.avg))
			}
		}
	}
	order := make([]int, 0, len(o.ids))
	for d, s := range score {
		if s > 0 {
			order = append(order, d)
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return score[order[i]] > score[order[j]] })
	out := []string{}
	for _, d := range order[:min(k, len(order))] {
		out = append(out, o.ids[d])
	}
	return out
}

func hitAt(got, want []string, k int) bool {
	for _, g := range got[:min(k, len(got))] {
		for _, w := range want {
			if g == w {
				return true
			}
		}
	}
	return false
}

// TestRetrievalRecallAgainstBM25 stores the sentences of 100 SQuAD 2.0
// training paragraphs as memory entries and asks their 1,165 answerable
// questions: the hybrid search must find the evidence sentence at 5 and at
// 10 results at least as often as a plain Okapi BM25 over the very texts
// memgov stored. Run with -v for the figures.
func TestRetrievalRecallAgainstBM25(t *testing.T) {
	retrievalRecall(t, os.Getenv("MEMGOV_TEST_POLICY"))
}

func retrievalRecall(t *testing.T, pol string) {
	passages, questions := loadRetrievalCorpus(t)
	if len(passages) < 500 || len(questions) < 1000 {
		t.Fatalf("corpus: %d passages, %d questions", len(passages), len(questions))
	}
	c := enginetest.NewClock(enginetest.T0)
	e := enginetest.New(t, pol, engine.WithClock(c.Now))
	enginetest.AddPrincipals(t, e)
	ctx := context.Background()
	const ref = "acme/qa"
	for _, p := range passages {
		body, _ := json.Marshal(map[string]string{"text": p.Text})
		if _, err := e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: ref, Key: p.ID, Layer: memgov.Episodic, Content: body, Confidence: 0.8, Actor: "jane"}); err != nil {
			t.Fatal(err)
		}
	}
	stored, err := e.Host().Adapter(memgov.Owner).ListVersions(ctx, ref, host.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ids, texts := make([]string, len(stored)), make([]string, len(stored))
	for i, v := range stored {
		ids[i], texts[i] = v.Key, v.Text()
	}
	ref25 := newOkapi(ids, texts)
	reader := e.Host().Adapter(memgov.As("support-bot"))
	var mem5, mem10, bm5, bm10, noHit, exactFirst int
	for _, q := range questions {
		hits, err := reader.Search(ctx, host.SearchQuery{MemoryRef: ref, Query: q.Question, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		got := make([]string, len(hits))
		for i, h := range hits {
			got[i] = h.Entry.ID
		}
		if len(got) == 0 {
			noHit++
		}
		base := ref25.search(q.Question, 10)
		for _, c := range []struct {
			n    *int
			list []string
			k    int
		}{{&mem5, got, 5}, {&mem10, got, 10}, {&bm5, base, 5}, {&bm10, base, 10}} {
			if hitAt(c.list, q.Evidence, c.k) {
				*c.n++
			}
		}
	}
	// The exact text of a stored entry ranks it first.
	for _, p := range passages[:100] {
		hits, err := reader.Search(ctx, host.SearchQuery{MemoryRef: ref, Query: p.Text, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 1 && hits[0].Entry.ID == p.ID {
			exactFirst++
		}
	}
	n := float64(len(questions))
	t.Logf("%d entries stored of %d passages, %d questions", len(stored), len(passages), len(questions))
	t.Logf("recall@5:  memgov %.3f, BM25 %.3f", float64(mem5)/n, float64(bm5)/n)
	t.Logf("recall@10: memgov %.3f, BM25 %.3f", float64(mem10)/n, float64(bm10)/n)
	t.Logf("questions with no hit: %d; exact text ranked first: %d of 100", noHit, exactFirst)
	if mem5 < bm5 || mem10 < bm10 {
		t.Errorf("the hybrid search finds less than BM25: recall@5 %d vs %d, recall@10 %d vs %d questions", mem5, bm5, mem10, bm10)
	}
	if noHit != 0 {
		t.Errorf("%d questions found nothing", noHit)
	}
	if exactFirst != 100 {
		t.Errorf("the exact text of an entry ranked it first for %d of 100 entries", exactFirst)
	}
}
