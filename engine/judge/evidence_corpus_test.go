package judge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/judge"
	"github.com/memgov/memgov/engine/oplog"
)

// evidenceRecord is one record of testdata/corpora/evidence.jsonl: a claim
// and a document excerpt that states it in other words (supports), states
// another value (contradicts) or speaks of something else (unrelated).
type evidenceRecord struct {
	Claim   string          `json:"claim"`
	Excerpt string          `json:"excerpt"`
	Label   string          `json:"label"`
	Split   string          `json:"split"`
	Source  json.RawMessage `json:"source"`
	Licence string          `json:"licence"`
}

func loadEvidence(t testing.TB) []evidenceRecord {
	return readCorpus(t, "evidence.jsonl", func(r evidenceRecord) bool { return len(r.Source) > 0 && r.Licence != "" })
}

// TestEvidenceCorpus writes each claim to EPISODIC memory with its excerpt
// as DOCUMENT evidence, through the write pipeline: at least 0.8 of the
// claims an excerpt states in other words must commit, and at least 0.9
// of those with a contradicting or unrelated excerpt must not.
func TestEvidenceCorpus(t *testing.T) {
	recs := loadEvidence(t)
	ctx := context.Background()
	e := newCorpusPipeline(t, "evidence-agent", "ev", time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	agent := e.Agent
	conf := 0.9
	type key struct{ split, label string }
	committed, total := map[key]int{}, map[key]int{}
	reasons := map[key]map[string]int{}
	splits := map[string]bool{}
	for i, r := range recs {
		e.Advance(time.Minute)
		content, _ := json.Marshal(map[string]string{"text": r.Claim})
		res, err := e.Writes().Write(ctx, memgov.WriteRequest{SourceAgentID: agent, MemoryRef: fmt.Sprintf("ev/%s/r%04d", agent, i), TargetLayer: memgov.Episodic,
			IdempotencyToken: fmt.Sprintf("ev-%05d", i), Content: content, Confidence: &conf, ObservationType: "tool_result_verified",
			EvidenceRefs: []oplog.EvidenceRef{{SourceType: "DOCUMENT", SourceURI: "https://docs.example/page", Excerpt: r.Excerpt}}})
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		k := key{r.Split, r.Label}
		splits[r.Split] = true
		total[k]++
		if reasons[k] == nil {
			reasons[k] = map[string]int{}
		}
		reasons[k][res.Status+" "+res.Reason]++
		if res.Status == memgov.StatusCommitted {
			committed[k]++
		}
		ok := (res.Status == memgov.StatusCommitted) == (r.Label == "supports")
		if testing.Verbose() && !ok {
			ev := judge.Support(r.Claim, r.Excerpt)
			t.Logf("%s %s: %q / %q: %s %s (%s) score %.2f %s", r.Split, r.Label, r.Claim, r.Excerpt, res.Status, res.Reason, res.Detail, ev.Score, ev.Explanation)
		}
	}
	names := make([]string, 0, len(splits))
	for n := range splits {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, sp := range names {
		for _, l := range []string{"supports", "contradicts", "unrelated"} {
			k := key{sp, l}
			t.Logf("%-10s %-11s %d records, committed %d; outcomes %v", sp, l, total[k], committed[k], reasons[k])
		}
		sup := float64(committed[key{sp, "supports"}]) / float64(max(total[key{sp, "supports"}], 1))
		bad := total[key{sp, "contradicts"}] + total[key{sp, "unrelated"}]
		held := 1 - float64(committed[key{sp, "contradicts"}]+committed[key{sp, "unrelated"}])/float64(max(bad, 1))
		t.Logf("%-10s supported in other words committed %.3f; contradicting or unrelated kept out %.3f", sp, sup, held)
		if sup < 0.8 || held < 0.9 {
			t.Errorf("evidence %s: %.3f of supported claims committed (want >= 0.8), %.3f of contradicted or unrelated kept out (want >= 0.9)", sp, sup, held)
		}
	}
}
