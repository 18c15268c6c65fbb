package judge_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/judge"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/store/sqlite"
)

// evidenceRecord is one record of testdata/corpora/evidence.jsonl: a claim
// and a document excerpt that states it in other words (supports), states
// another value (contradicts) or speaks of something else (unrelated).
type evidenceRecord struct {
	Claim   string          `json:"claim"`
	Excerpt string          `json:"excerpt"`
	Label   string          `json:"label"`
	Source  json.RawMessage `json:"source"`
	Licence string          `json:"licence"`
}

func loadEvidence(t testing.TB) []evidenceRecord {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "corpora", "evidence.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []evidenceRecord
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r evidenceRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Source) == 0 || r.Licence == "" {
			t.Fatalf("evidence record without source or licence: %s", sc.Text())
		}
		out = append(out, r)
	}
	return out
}

// TestEvidenceCorpus writes each claim to EPISODIC memory with its excerpt
// as DOCUMENT evidence, through the write pipeline: at least 0.8 of the
// claims an excerpt states in other words must commit, and at least 0.9
// of those with a contradicting or unrelated excerpt must not.
func TestEvidenceCorpus(t *testing.T) {
	recs := loadEvidence(t)
	ctx := context.Background()
	key := []byte("memgov-test-key-0123456789abcdef")
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "evidence.db"), sqlite.Options{Key: key, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pol := policy.Default()
	pol.Reputation.BurstLimit = 0
	pol.RateLimits.Layers.Episodic.Writes = 0
	pol.RateLimits.SessionBudget = policy.PerRole[int]{}
	clock := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	e := engine.New(s, key, engine.WithPolicy(pol), engine.WithClock(func() time.Time { return clock }))
	const agent = "evidence-agent"
	if _, err := e.AddPrincipal(ctx, engine.Principal{ID: agent, Role: engine.Orchestrator, Tenant: "ev"}, "test"); err != nil {
		t.Fatal(err)
	}
	conf := 0.9
	committed, total := map[string]int{}, map[string]int{}
	reasons := map[string]map[string]int{}
	for i, r := range recs {
		clock = clock.Add(time.Minute)
		content, _ := json.Marshal(map[string]string{"text": r.Claim})
		res, err := e.Write(ctx, engine.WriteRequest{SourceAgentID: agent, MemoryRef: fmt.Sprintf("ev/%s/r%04d", agent, i), TargetLayer: engine.Episodic,
			IdempotencyToken: fmt.Sprintf("ev-%05d", i), Content: content, Confidence: &conf, ObservationType: "tool_result_verified",
			EvidenceRefs: []engine.EvidenceRef{{SourceType: "DOCUMENT", SourceURI: "https://docs.example/page", Excerpt: r.Excerpt}}})
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		total[r.Label]++
		if reasons[r.Label] == nil {
			reasons[r.Label] = map[string]int{}
		}
		reasons[r.Label][res.Status+" "+res.Reason]++
		if res.Status == engine.StatusCommitted {
			committed[r.Label]++
		}
		ok := (res.Status == engine.StatusCommitted) == (r.Label == "supports")
		if testing.Verbose() && !ok {
			ev := judge.Support(r.Claim, r.Excerpt)
			t.Logf("%s: %q / %q: %s %s (%s) score %.2f %s", r.Label, r.Claim, r.Excerpt, res.Status, res.Reason, res.Detail, ev.Score, ev.Explanation)
		}
	}
	for _, l := range []string{"supports", "contradicts", "unrelated"} {
		t.Logf("%-11s %d records, committed %d (%.3f); outcomes %v", l, total[l], committed[l], float64(committed[l])/float64(max(total[l], 1)), reasons[l])
	}
	sup := float64(committed["supports"]) / float64(max(total["supports"], 1))
	held := 1 - float64(committed["contradicts"]+committed["unrelated"])/float64(max(total["contradicts"]+total["unrelated"], 1))
	t.Logf("supported in other words committed %.3f; contradicting or unrelated kept out %.3f", sup, held)
	if sup < 0.8 || held < 0.9 {
		t.Errorf("evidence: %.3f of supported claims committed (want >= 0.8), %.3f of contradicted or unrelated kept out (want >= 0.9)", sup, held)
	}
}
