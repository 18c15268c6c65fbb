package judge

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sketchTexts are the texts the sketch tests compare: every text of the
// judgement corpora (pairs, fact edits, evidence, conversation turns, SNLI
// pairs) in the order they come, and synthetic notes of invented words of
// the kind `memgov bench write` stores.
func sketchTexts(t *testing.T) (pairs [][2]string, texts []string) {
	t.Helper()
	for _, name := range []string{"contradiction.jsonl", "duplicate.jsonl", "factedit.jsonl", "evidence.jsonl", "chat.jsonl"} {
		f, err := os.Open(filepath.Join("..", "..", "testdata", "corpora", name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var r struct{ Text, A, B, Claim, Excerpt string }
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			switch {
			case r.A != "":
				pairs = append(pairs, [2]string{r.A, r.B})
			case r.Claim != "":
				pairs = append(pairs, [2]string{r.Excerpt, r.Claim})
			}
			for _, s := range []string{r.Text, r.A, r.B, r.Claim, r.Excerpt} {
				if s != "" {
					texts = append(texts, s)
				}
			}
		}
		f.Close()
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpora", "snli_train_sample.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(raw), "\n") {
		if f := strings.Split(l, "\t"); len(f) == 4 {
			pairs = append(pairs, [2]string{f[2], f[3]})
			texts = append(texts, f[2], f[3])
		}
	}
	// Notes of invented words, as a benchmark store holds: each shares
	// some words with the others.
	r := rand.New(rand.NewPCG(3, 4))
	syll := []string{"ka", "lo", "mi", "ne", "ru", "sa", "te", "vo", "pi", "da"}
	var vocab []string
	for len(vocab) < 300 {
		w := ""
		for k := 0; k < 2+r.IntN(3); k++ {
			w += syll[r.IntN(len(syll))]
		}
		vocab = append(vocab, w)
	}
	for i := 0; i < 400; i++ {
		ws := make([]string, 6+r.IntN(14))
		for k := range ws {
			ws[k] = vocab[r.IntN(len(vocab))]
		}
		ws[0] = strings.ToUpper(ws[0][:1]) + ws[0][1:]
		texts = append(texts, strings.Join(ws, " ")+fmt.Sprintf(" (ref %d).", r.IntN(1000)))
	}
	return pairs, texts
}

// sketchPairs are the labelled pairs both ways round, each text against
// its neighbours in corpus order (the next turn of a conversation, the
// next record), and random pairs.
func sketchPairs(pairs [][2]string, texts []string) [][2]string {
	var out [][2]string
	for _, p := range pairs {
		out = append(out, p, [2]string{p[1], p[0]})
	}
	for i := range texts {
		for k := 1; k <= 3 && i+k < len(texts); k++ {
			out = append(out, [2]string{texts[i], texts[i+k]})
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 12000 {
		out = append(out, [2]string{texts[r.IntN(len(texts))], texts[r.IntN(len(texts))]})
	}
	return out
}

// TestSketchesDecideAsTheFullReading checks that wherever a sketch answers
// (a far text, a pair no contradiction rule can touch), the full reading
// gives that answer: SimilarAtLeast's similarity and verdict at several
// thresholds, and an empty contradiction verdict. It also requires the
// sketches to decide most pairs of unrelated notes, and the judge to give
// the same verdicts with its caches warm (sketches answering) as cold.
func TestSketchesDecideAsTheFullReading(t *testing.T) {
	pairs, texts := sketchTexts(t)
	all := sketchPairs(pairs, texts)
	j := New(nil)
	lex := DefaultLexicon()
	decidedSim, decidedCon, contradictions := 0, 0, 0
	for _, p := range all {
		a, b := p[0], p[1]
		pa, pb := newPrepared(a, lex), newPrepared(b, lex)
		sa := simSketchOf(pa)
		if sa == nil {
			t.Fatalf("no sketch of %q", a)
		}
		for _, th := range []float64{0.3, 0.5, 0.7} {
			sim, near, ok := farBySketch(sa, pb, th)
			if !ok {
				continue
			}
			decidedSim++
			// The similarity is read only where it reaches the threshold.
			wantSim, wantNear := similarAtLeast(pa, pb, th)
			if near != wantNear || near && sim != wantSim {
				t.Errorf("SimilarAtLeast(%q, %q, %v): sketch %v %v, full reading %v %v", a, b, th, sim, near, wantSim, wantNear)
			}
		}
		ca, cb := newSceneText(a), newSceneText(b)
		full := j.contradiction(ca, cb)
		if full.Contradicts {
			contradictions++
		}
		if !mayContradict(conSketchOf(ca), conSketchOf(cb)) {
			decidedCon++
			if !reflect.DeepEqual(full, Verdict{}) {
				t.Errorf("Contradiction(%q, %q): the sketches rule it out, the full reading finds %s: %s", a, b, full.Rule, full.Explanation)
			}
		}
	}
	t.Logf("%d pairs (%d contradicting): the sketches decided %d of %d similarity questions and ruled out a contradiction in %d",
		len(all), contradictions, decidedSim, 3*len(all), decidedCon)
	if contradictions == 0 || decidedSim*10 < 3*len(all)*9 || decidedCon < len(all)/2 {
		t.Errorf("the pairs test too little: %d contradictions, %d similarity answers and %d contradiction answers from sketches", contradictions, decidedSim, decidedCon)
	}

	// Unrelated notes: the sketches decide nearly every pair.
	notes := texts[len(texts)-400:]
	n, decided := 0, 0
	for i, a := range notes {
		for _, b := range notes[i+1 : min(i+40, len(notes))] {
			n++
			_, _, ok := farBySketch(simSketchOf(newPrepared(a, lex)), newPrepared(b, lex), 0.5)
			if ok && !mayContradict(conSketchOf(newSceneText(a)), conSketchOf(newSceneText(b))) {
				decided++
			}
		}
	}
	t.Logf("the sketches decided %d of %d pairs of unrelated notes", decided, n)
	if decided*10 < n*9 {
		t.Errorf("the sketches decided %d of %d pairs of unrelated notes, want 90%% or more", decided, n)
	}

	// Warm and cold: a judge that has read every text answers from
	// sketches where it can, and gives the verdicts a fresh judge gives.
	warm := New(nil)
	for _, s := range texts {
		warm.prepare(s)
		warm.scenes.get(s)
	}
	for i, p := range all {
		if i%7 != 0 {
			continue
		}
		cold := New(nil)
		if w, c := warm.Contradiction(p[0], p[1]), cold.Contradiction(p[0], p[1]); !reflect.DeepEqual(w, c) {
			t.Errorf("Contradiction(%q, %q): warm %+v, cold %+v", p[0], p[1], w, c)
		}
		ws, wok := warm.SimilarAtLeast(p[0], p[1], 0.5)
		cs, cok := cold.SimilarAtLeast(p[0], p[1], 0.5)
		if wok != cok || wok && ws != cs {
			t.Errorf("SimilarAtLeast(%q, %q): warm %v %v, cold %v %v", p[0], p[1], ws, wok, cs, cok)
		}
	}
}

// TestForgetEmptiesSketches: an erasure empties a judge's sketches with
// its readings.
func TestForgetEmptiesSketches(t *testing.T) {
	j := New(nil)
	const text = "Dana's manager is Priya."
	j.SimilarAtLeast(text, "Dana's manager is Tomas.", 0.5)
	j.Contradiction(text, "Dana's manager is Tomas.")
	if !j.simSketches.has(text) || !j.conSketches.has(text) {
		t.Fatal("a text read in full was not sketched")
	}
	j.Forget()
	if j.cached(text) || j.simSketches.has(text) || j.conSketches.has(text) {
		t.Fatal("Forget left the text's sketch")
	}
}

// TestStoredSketches: a sketch encoded for storage decodes to the sketches
// the judge makes of the text, only for that text and this judge version;
// a damaged one is ignored, never a panic; and a judge that remembers the
// stored sketches of every text gives the verdicts a fresh judge gives.
func TestStoredSketches(t *testing.T) {
	pairs, texts := sketchTexts(t)
	lex := DefaultLexicon()
	for _, s := range texts[:3000] {
		b := Sketch(s)
		sim, con, err := decodeSketch(s, b)
		if err != nil {
			t.Fatalf("decode the sketch of %q: %v", s, err)
		}
		if want := simSketchOf(newPrepared(s, lex)); !reflect.DeepEqual(sim, want) {
			t.Fatalf("%q: decoded %+v, want %+v", s, sim, want)
		}
		if want := conSketchOf(newSceneText(s)); !reflect.DeepEqual(con, want) {
			t.Fatalf("%q: decoded %+v, want %+v", s, con, want)
		}
		if _, _, err := decodeSketch(s+" ", b); err == nil {
			t.Fatalf("the sketch of %q decoded for another text", s)
		}
		for n := 0; n < len(b); n += 7 {
			if _, _, err := decodeSketch(s, b[:n]); err == nil {
				t.Fatalf("a sketch of %q cut to %d bytes decoded", s, n)
			}
		}
	}
	other := append([]byte("sk0:"+Version()+"\x00"), Sketch(texts[0])[len(sketchStamp()):]...)
	if _, _, err := decodeSketch(texts[0], other); err == nil {
		t.Fatal("a sketch of another format decoded")
	}

	stored := New(nil)
	for _, s := range texts {
		stored.Remember(s, Sketch(s))
	}
	all := sketchPairs(pairs, texts)
	for i, p := range all {
		if i%11 != 0 {
			continue
		}
		cold := New(nil)
		if w, c := stored.Contradiction(p[0], p[1]), cold.Contradiction(p[0], p[1]); !reflect.DeepEqual(w, c) {
			t.Errorf("Contradiction(%q, %q): from stored sketches %+v, fresh %+v", p[0], p[1], w, c)
		}
		ws, wok := stored.SimilarAtLeast(p[0], p[1], 0.5)
		cs, cok := cold.SimilarAtLeast(p[0], p[1], 0.5)
		if wok != cok || wok && ws != cs {
			t.Errorf("SimilarAtLeast(%q, %q): from stored sketches %v %v, fresh %v %v", p[0], p[1], ws, wok, cs, cok)
		}
	}
	stored.Forget()
	if stored.cached(texts[0]) {
		t.Fatal("Forget left a remembered sketch")
	}
}

// TestJoinedHash: the hash of two words written together is the hash of
// the joined word, which the filters of the other text hold (hNext, hj
// against rawB).
func TestJoinedHash(t *testing.T) {
	for _, s := range []string{"", "a", "reentry", "kamifado doju", strings.Repeat("long-word ", 12)} {
		for i := 0; i <= len(s); i++ {
			if joinedHash(s[:i], s[i:]) != wordHash(s) {
				t.Fatalf("joinedHash(%q, %q) != wordHash(%q)", s[:i], s[i:], s)
			}
		}
	}
}

// FuzzDecodeSketch: a stored sketch, however damaged, decodes or is
// refused, never a panic, and one that decodes can be compared.
func FuzzDecodeSketch(f *testing.F) {
	const text = "Dana's manager is Priya; the re-entry form costs $5 (ref 12)."
	f.Add(Sketch(text))
	f.Add(Sketch("Kamifado doju vovodozu, Rete and rete."))
	pb := newPrepared("Priya manages Dana; the reentry form's price is 5 dollars.", DefaultLexicon())
	f.Fuzz(func(t *testing.T, b []byte) {
		sim, con, err := decodeSketch(text, b)
		if err != nil {
			return
		}
		farBySketch(sim, pb, 0.5)
		mayContradict(con, con)
	})
}
