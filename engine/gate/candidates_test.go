package gate_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/similar"
)

// fixedReader returns its candidates and topic neighbours whatever it is asked.
type fixedReader struct{ cands, topics []memgov.Candidate }

func (r fixedReader) Candidates(context.Context, memgov.CandidateQuery) ([]memgov.Candidate, error) {
	return r.cands, nil
}

func (r fixedReader) TopicCandidates(context.Context, memgov.TopicQuery) ([]memgov.Candidate, error) {
	return r.topics, nil
}

// The contradiction gate hands the dedup gate the candidates near the
// write by vector, hash, fingerprint or subject, and those the topic query
// found too; a band candidate far by its vector that the topic query did not
// find (a chance collision of the SimHash bands) is left out, unless a
// model's neighbours decide nearness.
func TestContradictionHandsOnNearCandidates(t *testing.T) {
	ctx := context.Background()
	features := func(text string) memory.Features {
		f, err := memory.FeaturesOf(json.RawMessage(`{"text":` + string(must(json.Marshal(text))) + `}`))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	write := features("The Lisbon office opens at nine on weekdays.")
	cand := func(id, text string) memgov.Candidate {
		f := features(text)
		emb, err := f.Embedding.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return memgov.Candidate{VersionID: id, ItemID: "item-" + id, Key: id, Layer: memgov.Semantic, State: memgov.Active,
			ContentHash: "sha256:" + id, Fingerprint: f.Fingerprint[:], Subject: f.Subject, Embedding: emb, Text: text, Confidence: 0.9}
	}
	near := cand("near", "The Lisbon office opens at nine on weekdays, and at ten on Saturdays.")
	far := cand("far", "Quarterly revenue of the Porto warehouse rose by a tenth.")
	farTopic := cand("far-topic", "Invoices are filed by the finance team every Friday.")
	sameSubject := cand("same-subject", "Invoices are filed by the finance team every Monday.")
	sameSubject.Subject = "lisbon office"
	hash := cand("hash", "Deliveries to the depot stop at noon.")
	hash.ContentHash = "sha256:write"
	for _, c := range []memgov.Candidate{far, farTopic, sameSubject, hash} {
		v, err := similar.UnmarshalVector(c.Embedding)
		if err != nil {
			t.Fatal(err)
		}
		if cos := similar.Cosine(write.Embedding, v); cos >= 0.5 {
			t.Fatalf("%s has cosine %.2f with the write: the test needs it far", c.Key, cos)
		}
	}
	write.Subject = "lisbon office"
	pol := policy.Default()
	r := fixedReader{cands: []memgov.Candidate{near, far, farTopic, sameSubject, hash}, topics: []memgov.Candidate{farTopic}}
	in := gate.ContradictionInput{MemoryRef: "acme/ops", Layer: memgov.Semantic, ContentHash: "sha256:write", Features: write,
		Confidence: 0.9, Policy: &pol, Reader: r, Topics: r}
	keys := func(ss []gate.Scored) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.Key)
		}
		slices.Sort(out)
		return out
	}
	out, err := gate.Contradiction{}.Evaluate(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keys(out.Candidates), []string{"far-topic", "hash", "near", "same-subject"}; !slices.Equal(got, want) {
		t.Errorf("candidates handed on = %v, want %v", got, want)
	}
	in.ModelNeighbours = []string{"far"}
	if out, err = (gate.Contradiction{}).Evaluate(ctx, in); err != nil {
		t.Fatal(err)
	}
	if got, want := keys(out.Candidates), []string{"far", "far-topic", "hash", "near", "same-subject"}; !slices.Equal(got, want) {
		t.Errorf("candidates handed on with a model's neighbours = %v, want %v", got, want)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
