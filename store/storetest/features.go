package storetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/memgov/memgov"
)

// The judge-derived cache: the engine stores each version's features with
// the judge version that computed them (PutFeatures); IndexStatus counts the
// indexed versions by judge version and FeatureTodo lists those of another
// version or none, for a reindex. PutFeatures replaces a version's features
// and bands, refuses a version that is not indexed or was erased, and an
// erasure removes the erased items' features. A rebuild keeps them.
func testFeatures(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	judge := fx.e.JudgeVersion()
	a := fx.put(ref, "dana/manager", "Dana's manager is Tomas.")
	b := fx.put(ref, "alice/home", "Alice grew up in Oslo.")
	status := func(j string) memgov.IndexStatus {
		t.Helper()
		var st memgov.IndexStatus
		fx.view(func(tx memgov.ReadTx) (err error) {
			st, err = tx.IndexStatus(fx.ctx, j)
			return err
		})
		return st
	}
	if st := status(judge); st.Current != 2 || st.Stale != 0 || st.Missing != 0 || !st.Fresh() || st.ByJudge[judge] != 2 {
		t.Fatalf("after two puts, IndexStatus(%s) = %+v, want 2 current", judge, st)
	}
	// Each version's judge sketch comes back with it as a candidate, as
	// the engine stored it.
	sketchOf := func(text string) []byte {
		t.Helper()
		var out []byte
		fx.view(func(tx memgov.ReadTx) error {
			cs, err := tx.TopicCandidates(fx.ctx, memgov.TopicQuery{MemoryRef: ref, Layer: memgov.Semantic, Text: text})
			if err != nil {
				return err
			}
			for _, c := range cs {
				if c.Text == text {
					out = c.Sketch
				}
			}
			return nil
		})
		return out
	}
	for _, text := range []string{"Dana's manager is Tomas.", "Alice grew up in Oslo."} {
		want, err := fx.e.IndexFeatures(json.RawMessage(fmt.Sprintf(`{"text":%q}`, text)))
		if err != nil {
			t.Fatal(err)
		}
		if got := sketchOf(text); len(got) == 0 || !bytes.Equal(got, want.Sketch) {
			t.Errorf("the candidate %q comes back with sketch %q, want the judge's", text, got)
		}
	}
	if st := status("another-judge"); st.Current != 0 || st.Stale != 2 || st.Fresh() {
		t.Fatalf("IndexStatus(another judge) = %+v, want 2 stale", st)
	}
	todo := func(j, after string, limit int) []memgov.FeatureTodo {
		t.Helper()
		var out []memgov.FeatureTodo
		fx.view(func(tx memgov.ReadTx) (err error) {
			out, err = tx.FeatureTodo(fx.ctx, j, after, limit)
			return err
		})
		return out
	}
	if td := todo(judge, "", 10); len(td) != 0 {
		t.Fatalf("FeatureTodo(running judge) = %+v, want none", td)
	}
	all := todo("another-judge", "", 10)
	if len(all) != 2 || all[0].VersionID >= all[1].VersionID {
		t.Fatalf("FeatureTodo(another judge) = %+v, want both versions in id order", all)
	}
	for _, td := range all {
		if td.MemoryRef != ref || td.Layer != memgov.Semantic || len(td.Content) == 0 {
			t.Errorf("todo %+v lacks its ref, layer or content", td)
		}
	}
	if page := todo("another-judge", all[0].VersionID, 10); len(page) != 1 || page[0].VersionID != all[1].VersionID {
		t.Errorf("FeatureTodo after the first = %+v", page)
	}
	if page := todo("another-judge", "", 1); len(page) != 1 {
		t.Errorf("FeatureTodo limit 1 = %+v", page)
	}

	// Replacing a's features moves its candidate lookups with them.
	fp := []byte("0123456789abcdef")
	put := func(vf memgov.VersionFeatures) error {
		return fx.s.Update(fx.ctx, func(tx memgov.Tx) error { return tx.PutFeatures(fx.ctx, vf) })
	}
	if err := put(memgov.VersionFeatures{VersionID: a.VersionID, MemoryRef: ref, Layer: memgov.Semantic, Judge: "another-judge",
		Fingerprint: fp, Subject: "subject-x", Bands: []uint32{7<<16 | 42}}); err != nil {
		t.Fatal(err)
	}
	fx.view(func(tx memgov.ReadTx) error {
		for what, q := range map[string]memgov.CandidateQuery{
			"fingerprint": {MemoryRef: ref, Fingerprint: fp},
			"subject":     {MemoryRef: ref, Subject: "subject-x"},
			"band":        {MemoryRef: ref, Bands: []uint32{7<<16 | 42}},
		} {
			cs, err := tx.Candidates(fx.ctx, q)
			if err != nil {
				return err
			}
			if len(cs) != 1 || cs[0].VersionID != a.VersionID || cs[0].Subject != "subject-x" || string(cs[0].Fingerprint) != string(fp) {
				t.Errorf("by the replaced %s: candidates %+v, want version a alone with its new features", what, cs)
			}
		}
		return nil
	})
	if st := status(judge); st.Current != 1 || st.Stale != 1 || st.ByJudge["another-judge"] != 1 {
		t.Errorf("after replacing a's features, IndexStatus = %+v, want 1 current and 1 stale", st)
	}
	if got := sketchOf("Dana's manager is Tomas."); len(got) != 0 {
		t.Errorf("features put without a sketch left the sketch %q", got)
	}
	if td := todo(judge, "", 10); len(td) != 1 || td[0].VersionID != a.VersionID {
		t.Errorf("FeatureTodo lists %+v, want version a alone", td)
	}
	if err := put(memgov.VersionFeatures{VersionID: "no-such-version", MemoryRef: ref, Judge: judge, Fingerprint: fp}); !errors.Is(err, memgov.ErrNotFound) {
		t.Errorf("PutFeatures of an unknown version: %v, want ErrNotFound", err)
	}
	if err := put(memgov.VersionFeatures{VersionID: b.VersionID, MemoryRef: "acme/other", Judge: judge, Fingerprint: fp}); !errors.Is(err, memgov.ErrNotFound) {
		t.Errorf("PutFeatures under another ref: %v, want ErrNotFound", err)
	}

	// A rebuild keeps the cache.
	if _, err := fx.s.Rebuild(fx.ctx); err != nil {
		t.Fatal(err)
	}
	if st := status(judge); st.Current != 1 || st.Stale != 1 {
		t.Errorf("after a rebuild, IndexStatus = %+v, want the cache kept", st)
	}

	// An erasure removes the erased item's features, and none can be put back.
	if _, err := fx.e.Erase(fx.ctx, memgov.EraseRequest{Subject: "Alice", By: curator, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	if st := status(judge); st.Current != 0 || st.Stale != 1 || st.Missing != 0 {
		t.Errorf("after erasing b, IndexStatus = %+v, want a's stale row alone", st)
	}
	if td := todo(judge, "", 10); len(td) != 1 || td[0].VersionID != a.VersionID {
		t.Errorf("after erasing b, FeatureTodo = %+v, want a alone", td)
	}
	if err := put(memgov.VersionFeatures{VersionID: b.VersionID, MemoryRef: ref, Judge: judge, Fingerprint: fp}); !errors.Is(err, memgov.ErrNotFound) {
		t.Errorf("PutFeatures of an erased version: %v, want ErrNotFound", err)
	}
}
