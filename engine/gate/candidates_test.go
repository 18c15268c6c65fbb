package gate_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
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

// textFeatures are the features of a content {"text": text}.
func textFeatures(t *testing.T, text string) memory.Features {
	t.Helper()
	f, err := memory.FeaturesOf(json.RawMessage(`{"text":` + string(must(json.Marshal(text))) + `}`))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// textCandidate is the semantic version id of text in state, as a store
// returns it in full, written by ops-jane with confidence 0.95.
func textCandidate(t *testing.T, id, text string, state memgov.State) memgov.Candidate {
	t.Helper()
	f := textFeatures(t, text)
	emb, err := f.Embedding.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return memgov.Candidate{VersionID: id, ItemID: "item-" + id, Key: id, Layer: memgov.Semantic, State: state,
		ContentHash: "sha256:" + id, Fingerprint: f.Fingerprint[:], Subject: f.Subject, Predicate: f.Predicate, Object: f.Object,
		Embedding: emb, Text: text, Confidence: 0.95, CreatedBy: "ops-jane"}
}

// The contradiction gate hands the dedup gate the candidates near the
// write by vector, hash, fingerprint or subject, and those the topic query
// found too; a band candidate far by its vector that the topic query did not
// find (a chance collision of the SimHash bands) is left out, unless a
// model's neighbours decide nearness.
func TestContradictionHandsOnNearCandidates(t *testing.T) {
	ctx := context.Background()
	write := textFeatures(t, "The Lisbon office opens at nine on weekdays.")
	cand := func(id, text string) memgov.Candidate {
		c := textCandidate(t, id, text, memgov.Active)
		c.Predicate, c.Object, c.Confidence, c.CreatedBy = "", "", 0.9, ""
		return c
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

// lightReader serves candidates as a store does: a light query returns
// versions of every state without their texts, and CandidateRows the live
// ones in full. It records the versions read in full.
type lightReader struct {
	all    []memgov.Candidate
	topics []memgov.Candidate
	rows   *[]string
}

func live(c memgov.Candidate) bool { return c.State == memgov.Active || c.State == memgov.Draft }

func (r lightReader) Candidates(_ context.Context, q memgov.CandidateQuery) ([]memgov.Candidate, error) {
	var out []memgov.Candidate
	for _, c := range r.all {
		if q.Light {
			out = append(out, memgov.Candidate{VersionID: c.VersionID, ItemID: c.ItemID, Key: c.Key, Layer: c.Layer,
				ContentHash: c.ContentHash, Fingerprint: c.Fingerprint, Subject: c.Subject, Embedding: c.Embedding})
		} else if live(c) {
			out = append(out, c)
		}
	}
	return out, nil
}

func (r lightReader) CandidateRows(_ context.Context, ids []string, _ memgov.Layer) ([]memgov.Candidate, error) {
	*r.rows = append(*r.rows, ids...)
	var out []memgov.Candidate
	for _, id := range ids {
		for _, c := range r.all {
			if c.VersionID == id && live(c) {
				out = append(out, c)
			}
		}
	}
	return out, nil
}

func (r lightReader) TopicCandidates(context.Context, memgov.TopicQuery) ([]memgov.Candidate, error) {
	return r.topics, nil
}

// With a store that answers light queries, the contradiction gate reads in
// full only the candidates it keeps (once each), and finds what it finds
// reading every candidate in full.
func TestContradictionReadsKeptCandidatesOnly(t *testing.T) {
	ctx := context.Background()
	write := textFeatures(t, "The Lisbon office opens at nine on weekdays.")
	cand := func(id, text string, state memgov.State) memgov.Candidate { return textCandidate(t, id, text, state) }
	all := []memgov.Candidate{
		cand("near", "The Lisbon office opens at nine on weekdays, and at ten on Saturdays.", memgov.Active),
		cand("contra", "The Lisbon office opens at eight on weekdays.", memgov.Active),
		cand("retired", "The Lisbon office opens at seven on weekdays.", memgov.Superseded),
		cand("pending", "The Lisbon office opens at nine on weekdays only.", memgov.Draft),
		cand("far", "Quarterly revenue of the Porto warehouse rose by a tenth.", memgov.Active),
		cand("far-topic", "Invoices are filed by the finance team every Friday.", memgov.Active),
	}
	pol := policy.Default()
	var rows []string
	lr := lightReader{all: all, topics: []memgov.Candidate{all[5]}, rows: &rows}
	var fixed []memgov.Candidate
	for _, c := range all {
		if live(c) {
			fixed = append(fixed, c)
		}
	}
	fr := fixedReader{cands: fixed, topics: lr.topics}
	eval := func(r interface {
		gate.CandidateReader
		gate.TopicReader
	}) gate.ContradictionResult {
		out, err := gate.Contradiction{}.Evaluate(ctx, gate.ContradictionInput{MemoryRef: "acme/ops", Layer: memgov.Semantic, ContentHash: "sha256:write",
			Features: write, Confidence: 0.9, Policy: &pol, Reader: r, Topics: r})
		if err != nil {
			t.Fatal(err)
		}
		out.JudgeTime = 0
		return out
	}
	want, got := eval(fr), eval(lr)
	if len(want.Contradicts) == 0 {
		t.Fatalf("the test needs a contradiction: %+v", want.Result)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with light reads the gate found\n%+v\nreading every candidate in full\n%+v", got, want)
	}
	slices.Sort(rows)
	// far-topic is kept too, as the topic query found it: that query read
	// it in full already.
	if want := []string{"contra", "near", "pending", "retired"}; !slices.Equal(rows, want) {
		t.Errorf("versions read in full = %v; want the kept ones the topic query did not read, %v", rows, want)
	}
}

// failingRows fails to read candidates in full.
type failingRows struct{ lightReader }

func (failingRows) CandidateRows(context.Context, []string, memgov.Layer) ([]memgov.Candidate, error) {
	return nil, errors.New("disk I/O error")
}

// A failure to read the kept candidates in full is an error of the gate,
// never a verdict on fewer candidates.
func TestContradictionCandidateRowsFailure(t *testing.T) {
	f, err := memory.FeaturesOf(json.RawMessage(`{"text":"The Lisbon office opens at nine on weekdays."}`))
	if err != nil {
		t.Fatal(err)
	}
	emb := must(f.Embedding.MarshalBinary())
	c := memgov.Candidate{VersionID: "v1", ItemID: "i1", Key: "office", Layer: memgov.Semantic, State: memgov.Active,
		ContentHash: "sha256:v1", Fingerprint: f.Fingerprint[:], Subject: f.Subject, Embedding: emb, Text: "The Lisbon office opens at nine on weekdays."}
	var rows []string
	r := failingRows{lightReader{all: []memgov.Candidate{c}, rows: &rows}}
	pol := policy.Default()
	out, err := gate.Contradiction{}.Evaluate(context.Background(), gate.ContradictionInput{MemoryRef: "acme/ops", Layer: memgov.Semantic,
		ContentHash: "sha256:write", Features: f, Confidence: 0.9, Policy: &pol, Reader: r, Topics: r})
	if err == nil || !strings.Contains(err.Error(), "disk I/O error") || out.Verdict != 0 {
		t.Errorf("Evaluate = %v, %v; want the read's error and no verdict", out.Verdict, err)
	}
}
