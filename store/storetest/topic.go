package storetest

import (
	"encoding/json"
	"testing"

	"github.com/memgov/memgov/engine"
)

// TopicCandidates finds the live versions of one ref and layer whose text
// matches the query best (full-text, BM25 first) and those with the query's
// extracted subject, whatever their similarity.
func testTopicCandidates(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	dana := fx.put(ref, "dana/manager", "Dana's manager is Priya, who joined the Lisbon office in 2019.")
	office := fx.put(ref, "office/hours", "The Lisbon office opens at nine.")
	fx.put(ref, "weather", "It rained all day in Porto.")
	fx.put(ref, "dana/episode", "Dana visited the Lisbon office with Priya.", func(p *engine.PutRequest) { p.Layer = engine.Episodic })
	fx.put("acme/other", "dana/manager", "Dana's manager is Priya, who joined the Lisbon office in 2019.")
	old := fx.put(ref, "old", "The Lisbon office closes at five.")
	fx.put(ref, "old", "The Porto warehouse closes at six.")
	subject := engine.FeaturesOf(json.RawMessage(`{"text":"Dana's manager is Tomás."}`)).Subject
	if subject == "" {
		t.Fatal("no subject extracted from the query text: the subject case cannot fail")
	}
	fx.view(func(tx engine.ReadTx) error {
		cs, err := tx.TopicCandidates(fx.ctx, engine.TopicQuery{MemoryRef: ref, Layer: engine.Semantic, Text: "Who manages Dana at the Lisbon office?", Limit: 10})
		if err != nil {
			return err
		}
		got := map[string]bool{}
		for _, c := range cs {
			got[c.VersionID] = true
			if c.Layer != engine.Semantic || c.State != engine.Active || c.Text == "" || len(c.Embedding) == 0 {
				t.Errorf("candidate %s: %+v", c.Key, c)
			}
			if c.Key == "weather" || c.VersionID == old.VersionID {
				t.Errorf("%s (%s) is a topic candidate", c.Key, c.Text)
			}
		}
		if len(cs) != 2 || cs[0].VersionID != dana.VersionID || !got[office.VersionID] {
			t.Errorf("full-text candidates = %+v, want dana/manager then office/hours", candidateKeys(cs))
		}
		if cs, err := tx.TopicCandidates(fx.ctx, engine.TopicQuery{MemoryRef: ref, Layer: engine.Semantic, Text: "Lisbon office", Limit: 1}); err != nil || len(cs) != 1 {
			t.Errorf("limit 1 = %v, %v", candidateKeys(cs), err)
		}
		cs, err = tx.TopicCandidates(fx.ctx, engine.TopicQuery{MemoryRef: ref, Layer: engine.Semantic, Subject: subject})
		if err != nil || len(cs) != 1 || cs[0].VersionID != dana.VersionID {
			t.Errorf("by subject %q = %v, %v", subject, candidateKeys(cs), err)
		}
		if cs, err := tx.TopicCandidates(fx.ctx, engine.TopicQuery{MemoryRef: ref, Layer: engine.Semantic, Text: "the of and \" * OR NEAR("}); err != nil || len(cs) != 0 {
			t.Errorf("a query of stop words and FTS syntax = %v, %v", candidateKeys(cs), err)
		}
		if cs, err := tx.TopicCandidates(fx.ctx, engine.TopicQuery{MemoryRef: "acme/nobody", Layer: engine.Semantic, Text: "Dana Lisbon office"}); err != nil || len(cs) != 0 {
			t.Errorf("another ref's versions = %v, %v", candidateKeys(cs), err)
		}
		return nil
	})
}

func candidateKeys(cs []engine.Candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Key)
	}
	return out
}
