package judge_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/store/sqlite"
)

// readCorpus reads testdata/corpora/NAME, one JSON object of type T a line;
// check refuses a record the corpus must not hold (no source or licence).
func readCorpus[T any](t testing.TB, name string, check func(T) bool) []T {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "corpora", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r T
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if check != nil && !check(r) {
			t.Fatalf("%s: a record without its source, licence or text: %s", name, sc.Text())
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

// corpusPipeline is an engine on a fresh database, as a corpus test writes
// through it: the default policy with the burst and rate limits lifted (an
// agent replaying a corpus writes faster than they allow, and they are not
// what is measured), one orchestrator agent of tenant, and a clock the test
// moves with Advance.
type corpusPipeline struct {
	*engine.Engine
	Agent string
	now   time.Time
}

func newCorpusPipeline(t testing.TB, agent, tenant string, start time.Time) *corpusPipeline {
	t.Helper()
	ctx := context.Background()
	key := []byte("memgov-test-key-0123456789abcdef")
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "corpus.db"), sqlite.Options{Key: key, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	pol := policy.Default()
	pol.Reputation.BurstLimit = 0
	pol.RateLimits.Layers.Episodic.Writes = 0
	pol.RateLimits.SessionBudget = policy.PerRole[int]{}
	p := &corpusPipeline{Agent: agent, now: start}
	p.Engine = engine.New(s, key, engine.WithPolicy(pol), engine.WithClock(func() time.Time { return p.now }))
	if _, err := p.AddPrincipal(ctx, memgov.Principal{ID: agent, Role: memgov.Orchestrator, Tenant: tenant}, "test"); err != nil {
		t.Fatal(err)
	}
	return p
}

// Advance moves the pipeline's clock by d and returns the new time.
func (p *corpusPipeline) Advance(d time.Duration) time.Time {
	p.now = p.now.Add(d)
	return p.now
}
