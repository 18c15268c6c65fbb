package storetest

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/memgov/memgov"
)

// TopicCandidates finds the live versions of one ref and layer whose text
// matches the query best (full-text, BM25 first) and those with the query's
// extracted subject, whatever their similarity.
func testTopicCandidates(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	dana := fx.put(ref, "dana/manager", "Dana's manager is Priya, who joined the Lisbon office in 2019.")
	office := fx.put(ref, "office/hours", "The Lisbon office opens at nine.")
	fx.put(ref, "weather", "It rained all day in Porto.")
	fx.put(ref, "dana/episode", "Dana visited the Lisbon office with Priya.", func(p *memgov.PutRequest) { p.Layer = memgov.Episodic })
	fx.put("acme/other", "dana/manager", "Dana's manager is Priya, who joined the Lisbon office in 2019.")
	old := fx.put(ref, "old", "The Lisbon office closes at five.")
	fx.put(ref, "old", "The Porto warehouse closes at six.")
	qf, err := fx.e.IndexFeatures(json.RawMessage(`{"text":"Dana's manager is Tomás."}`))
	if err != nil {
		t.Fatal(err)
	}
	subject := qf.Subject
	if subject == "" {
		t.Fatal("no subject extracted from the query text: the subject case cannot fail")
	}
	fx.view(func(tx memgov.ReadTx) error {
		cs, err := tx.TopicCandidates(fx.ctx, memgov.TopicQuery{MemoryRef: ref, Layer: memgov.Semantic, Text: "Who manages Dana at the Lisbon office?", Limit: 10})
		if err != nil {
			return err
		}
		got := map[string]bool{}
		for _, c := range cs {
			got[c.VersionID] = true
			if c.Layer != memgov.Semantic || c.State != memgov.Active || c.Text == "" || len(c.Embedding) == 0 {
				t.Errorf("candidate %s: %+v", c.Key, c)
			}
			if c.Key == "weather" || c.VersionID == old.VersionID {
				t.Errorf("%s (%s) is a topic candidate", c.Key, c.Text)
			}
		}
		if len(cs) != 2 || cs[0].VersionID != dana.VersionID || !got[office.VersionID] {
			t.Errorf("full-text candidates = %+v, want dana/manager then office/hours", candidateKeys(cs))
		}
		if cs, err := tx.TopicCandidates(fx.ctx, memgov.TopicQuery{MemoryRef: ref, Layer: memgov.Semantic, Text: "Lisbon office", Limit: 1}); err != nil || len(cs) != 1 {
			t.Errorf("limit 1 = %v, %v", candidateKeys(cs), err)
		}
		cs, err = tx.TopicCandidates(fx.ctx, memgov.TopicQuery{MemoryRef: ref, Layer: memgov.Semantic, Subject: subject})
		if err != nil || len(cs) != 1 || cs[0].VersionID != dana.VersionID {
			t.Errorf("by subject %q = %v, %v", subject, candidateKeys(cs), err)
		}
		if cs, err := tx.TopicCandidates(fx.ctx, memgov.TopicQuery{MemoryRef: ref, Layer: memgov.Semantic, Text: "the of and \" * OR NEAR("}); err != nil || len(cs) != 0 {
			t.Errorf("a query of stop words and FTS syntax = %v, %v", candidateKeys(cs), err)
		}
		if cs, err := tx.TopicCandidates(fx.ctx, memgov.TopicQuery{MemoryRef: "acme/nobody", Layer: memgov.Semantic, Text: "Dana Lisbon office"}); err != nil || len(cs) != 0 {
			t.Errorf("another ref's versions = %v, %v", candidateKeys(cs), err)
		}
		return nil
	})
}

func candidateKeys(cs []memgov.Candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Key)
	}
	return out
}

// Model vectors are stored per version and model; ModelVectors reads the
// live versions' vectors of one model, ref and layer; VectorTodo lists the
// live durable versions without a vector of a model and counts the vectors
// per model.
func testModelVectors(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	a := fx.put(ref, "a", "Dana's manager is Priya.")
	b := fx.put(ref, "b", "The Lisbon office opens at nine.")
	ep := fx.put(ref, "ep", "Dana visited Lisbon.", func(p *memgov.PutRequest) { p.Layer = memgov.Episodic })
	fx.put(ref, "w", "Scratch note.", func(p *memgov.PutRequest) { p.Layer = memgov.Working })
	old := fx.put(ref, "old", "The office closes at five.")
	fx.put(ref, "old", "The office closes at six.")
	put := func(v memgov.ModelVector) {
		t.Helper()
		if err := fx.s.Update(fx.ctx, func(tx memgov.Tx) error { return tx.PutModelVector(fx.ctx, v) }); err != nil {
			t.Fatal(err)
		}
	}
	put(memgov.ModelVector{VersionID: a.VersionID, MemoryRef: ref, Layer: memgov.Semantic, Model: "m1", Vector: []byte("v-a-1")})
	put(memgov.ModelVector{VersionID: a.VersionID, MemoryRef: ref, Layer: memgov.Semantic, Model: "m1", Vector: []byte("v-a-2")}) // replaces
	put(memgov.ModelVector{VersionID: a.VersionID, MemoryRef: ref, Layer: memgov.Semantic, Model: "m0", Vector: []byte("v-a-0")})
	put(memgov.ModelVector{VersionID: ep.VersionID, MemoryRef: ref, Layer: memgov.Episodic, Model: "m1", Vector: []byte("v-ep")})
	put(memgov.ModelVector{VersionID: old.VersionID, MemoryRef: ref, Layer: memgov.Semantic, Model: "m1", Vector: []byte("v-old")})
	fx.view(func(tx memgov.ReadTx) error {
		vs, err := tx.ModelVectors(fx.ctx, ref, memgov.Semantic, "m1")
		if err != nil {
			return err
		}
		if len(vs) != 1 || vs[0].VersionID != a.VersionID || string(vs[0].Vector) != "v-a-2" || vs[0].Model != "m1" {
			t.Errorf("ModelVectors(SEMANTIC, m1) = %+v", vs)
		}
		if vs, err := tx.ModelVectors(fx.ctx, ref, memgov.Semantic, "m2"); err != nil || len(vs) != 0 {
			t.Errorf("another model's vectors = %+v, %v", vs, err)
		}
		todo, counts, err := tx.VectorTodo(fx.ctx, "m1", 10)
		if err != nil {
			return err
		}
		var ids []string
		for _, td := range todo {
			ids = append(ids, td.VersionID)
			if td.Text == "" || td.MemoryRef != ref {
				t.Errorf("todo %+v", td)
			}
		}
		if len(todo) != 2 || !contains(ids, b.VersionID) || contains(ids, a.VersionID) || contains(ids, ep.VersionID) {
			t.Errorf("VectorTodo(m1) = %+v", todo)
		}
		if counts["m1"] != 3 || counts["m0"] != 1 {
			t.Errorf("counts = %v", counts)
		}
		if todo, _, err := tx.VectorTodo(fx.ctx, "m1", 1); err != nil || len(todo) != 1 {
			t.Errorf("limit 1 = %+v, %v", todo, err)
		}
		return nil
	})
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// A topic query whose words together match more than a thousand texts of
// the scope ranks only those holding its rarest words: the text sharing the
// write's rare words still comes first, and no text outside the scope or
// holding none of the kept words is read.
func testTopicCandidatesRareWords(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	const common = 1005
	for i := 0; i < common; i++ {
		fx.put(ref, fmt.Sprintf("ticket/%04d", i), fmt.Sprintf("Support ticket %d about the billing dashboard was closed.", i))
	}
	rare := fx.put(ref, "quokka", "The billing dashboard shows the quokka sanctuary invoice.")
	fx.view(func(tx memgov.ReadTx) error {
		cs, err := tx.TopicCandidates(fx.ctx, memgov.TopicQuery{MemoryRef: ref, Layer: memgov.Semantic,
			Text: "Was the quokka sanctuary invoice on the billing dashboard closed?", Limit: 5})
		if err != nil {
			return err
		}
		if len(cs) == 0 || cs[0].VersionID != rare.VersionID {
			t.Errorf("topic candidates of a query of common and rare words = %v, want quokka first", candidateKeys(cs))
		}
		if len(cs) != 1 {
			t.Errorf("topic candidates = %v: the common words were queried too, want the quokka text alone", candidateKeys(cs))
		}
		return nil
	})
}

// A topic query whose words each match fewer texts than the budget but add
// up to more, while the texts holding any of them stay within it (the words
// share their texts), keeps every word: a text holding only the commonest of
// them is still a candidate.
func testTopicCandidatesSharedWords(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	for i := 0; i < 500; i++ {
		fx.put(ref, fmt.Sprintf("salad/%03d", i), fmt.Sprintf("Kiwi and mango salad number %d.", i))
	}
	for i := 0; i < 500; i++ { // the scope holds more texts than the budget
		fx.put(ref, fmt.Sprintf("filler/%03d", i), fmt.Sprintf("Filler note %d about the weather.", i))
	}
	fx.put(ref, "mango", "A ripe mango alone.")
	fx.put(ref, "papaya", "Papaya jam.")
	fx.put(ref, "guava", "Guava juice.")
	fx.view(func(tx memgov.ReadTx) error {
		cs, err := tx.TopicCandidates(fx.ctx, memgov.TopicQuery{MemoryRef: ref, Layer: memgov.Semantic, Text: "kiwi mango papaya guava", Limit: 2000})
		if err != nil {
			return err
		}
		keys := map[string]bool{}
		for _, c := range cs {
			keys[c.Key] = true
		}
		if !keys["mango"] || !keys["papaya"] || !keys["guava"] || keys["filler/000"] || len(cs) != 503 {
			t.Errorf("topic candidates: %d, mango %v, papaya %v, guava %v, a filler %v; want the 503 texts holding a query word, the mango text among them",
				len(cs), keys["mango"], keys["papaya"], keys["guava"], keys["filler/000"])
		}
		return nil
	})
}

// A text written long before a thousand others that share the write's
// common words is still found by the rare words it shares with the write,
// and ranks above every text holding only common ones, however new.
func testTopicCandidatesOldRareText(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	old := fx.put(ref, "marisol/office", "Marisol works from the Valparaiso office on the harbour.")
	for i := 0; i < 1005; i++ {
		fx.put(ref, fmt.Sprintf("office/%04d", i), fmt.Sprintf("The office kitchen was cleaned on day %d and works again.", i))
	}
	fx.view(func(tx memgov.ReadTx) error {
		cs, err := tx.TopicCandidates(fx.ctx, memgov.TopicQuery{MemoryRef: ref, Layer: memgov.Semantic,
			Text: "Marisol works from the Antofagasta office now.", Limit: 5})
		if err != nil {
			return err
		}
		if len(cs) == 0 || cs[0].VersionID != old.VersionID {
			t.Errorf("topic candidates = %v, want marisol/office first", candidateKeys(cs))
		}
		if len(cs) > 5 {
			t.Errorf("%d topic candidates, limit 5", len(cs))
		}
		return nil
	})
}
