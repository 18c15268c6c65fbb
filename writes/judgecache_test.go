package writes_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/store/sqlite"
)

// olderRules is the judge of another rules revision: it read every word
// with a marker, so the fingerprints, subjects, vectors and bands it derived
// from a text are not those the built-in judge derives today.
type olderRules struct{}

func (olderRules) Version() string { return "test-rules-r0" }

func (olderRules) Features(content json.RawMessage) (memory.Features, error) {
	var c struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(content, &c); err != nil {
		return memory.Features{}, err
	}
	words := strings.Fields(c.Text)
	for i, w := range words {
		words[i] = "r0" + w
	}
	marked, err := json.Marshal(map[string]string{"text": strings.Join(words, " ")})
	if err != nil {
		return memory.Features{}, err
	}
	f, err := memory.FeaturesOf(marked)
	f.Text = c.Text
	return f, err
}

// A database written by one judge and opened by another: the log and the
// rows it determines verify (with and without a replay), the index reads
// stale, candidate lookups miss the older items until `admin reindex`
// recomputes the judge cache from the stored content, and then find them
// again. The reindex appends nothing and changes no log row; an item erased
// before it stays erased.
func TestJudgeUpgradeReindex(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memgov.db")
	const ref = "acme/support-bot"
	dana := "Dana's manager is Tomas, who joined the Lisbon office in 2019."
	near := "Dana's manager is Tomas, who joined the Lisbon office in 2019!"
	{
		s, err := sqlite.Open(ctx, path, sqlite.Options{Key: testKey, Create: true})
		if err != nil {
			t.Fatal(err)
		}
		old := engine.New(s, testKey, engine.WithIndexer(olderRules{}))
		setupAgents(t, old)
		for key, text := range map[string]string{"dana/manager": dana, "alice/home": "Alice grew up in Oslo.",
			"office/hours": "The Lisbon office opens at nine."} {
			if _, err := old.Writes().Put(ctx, memgov.PutRequest{MemoryRef: ref, Key: key, Layer: memgov.Semantic,
				Content: json.RawMessage(`{"text":` + quote(text) + `}`), Actor: "jane", Confidence: 0.9, Reason: "test"}); err != nil {
				t.Fatal(err)
			}
		}
		// With the judge that wrote them, lookups find the items.
		if got := nearKeys(t, old, ref, near); len(got) != 1 || got[0] != "dana/manager" {
			t.Fatalf("the writing judge's near-duplicates of Dana's text = %v, want dana/manager", got)
		}
		if _, err := old.Lifecycle().Erase(ctx, memgov.EraseRequest{Subject: "Alice", By: "jane", Reason: "erasure request"}); err != nil {
			t.Fatal(err)
		}
		s.Close()
	}

	s, err := sqlite.Open(ctx, path, sqlite.Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e := engine.New(s, testKey) // the built-in judge
	for name, verify := range map[string]func(context.Context) (memgov.VerifyReport, error){"verify": e.Audit().Verify, "verify --replay": e.Audit().VerifyReplay} {
		rep, err := verify(ctx)
		if err != nil || !rep.OK || len(rep.Differences) > 0 {
			t.Fatalf("%s after the judge changed: %+v, %v; want clean (the judge's output is not evidence)", name, rep, err)
		}
		if rep.Index == nil || rep.Index.Fresh() || rep.Index.Stale != 2 || rep.Index.Current != 0 || rep.Index.ByJudge["test-rules-r0"] != 2 {
			t.Fatalf("%s: index %+v, want the two live versions stale (the erased one has none)", name, rep.Index)
		}
	}
	if got := nearKeys(t, e, ref, near); len(got) != 0 {
		t.Fatalf("before reindex, near-duplicates = %v: the stale index should miss the older item", got)
	}
	rootBefore, err := e.Audit().AuditRoot(ctx)
	if err != nil {
		t.Fatal(err)
	}

	rep, err := e.Writes().Reindex(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Reindexed != 2 || !rep.After.Fresh() || rep.After.Current != 2 || rep.Before.Stale != 2 || rep.Judge != e.Writes().JudgeVersion() {
		t.Fatalf("reindex = %+v, want 2 versions recomputed and a fresh index", rep)
	}
	rootAfter, err := e.Audit().AuditRoot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rootAfter != rootBefore {
		t.Fatalf("reindex changed the log: root %+v, was %+v", rootAfter, rootBefore)
	}
	vr, err := e.Audit().VerifyReplay(ctx)
	if err != nil || !vr.OK || vr.Index == nil || !vr.Index.Fresh() {
		t.Fatalf("verify --replay after reindex: %+v, %v", vr, err)
	}
	if got := nearKeys(t, e, ref, near); len(got) != 1 || got[0] != "dana/manager" {
		t.Fatalf("after reindex, near-duplicates = %v, want dana/manager found again", got)
	}
	if got := nearKeys(t, e, ref, "Alice grew up in Oslo."); len(got) != 0 {
		t.Fatalf("after reindex, the erased item is a near-duplicate: %v", got)
	}
	// A governed near-duplicate write finds the older item again.
	var w map[string]any
	if err := json.Unmarshal(req("billing-agent", ref, "dana/manager-again", near), &w); err != nil {
		t.Fatal(err)
	}
	w["target_layer"] = "SEMANTIC"
	raw, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	res := write(t, e, raw)
	t.Logf("near-duplicate write after reindex: %s %s %s related %v", res.Status, res.Reason, res.Detail, res.Related)
	if !strings.Contains(strings.Join(res.Related, " "), "dana/manager") && !strings.Contains(res.Detail, "dana/manager") {
		t.Fatalf("a near-duplicate write after reindex: %+v, want it to find dana/manager", res)
	}
	if again, err := e.Writes().Reindex(ctx, nil); err != nil || again.Reindexed != 0 {
		t.Fatalf("a second reindex = %+v, %v; want nothing to do", again, err)
	}
}

func nearKeys(t *testing.T, e *engine.Engine, ref, text string) []string {
	t.Helper()
	items, err := e.Writes().NearDuplicates(context.Background(), ref, memgov.Semantic, text, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, it := range items {
		keys = append(keys, it.Key)
	}
	return keys
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
