package writes_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/store/sqlite"
)

// groupEnv is an engine over a real SQLite file with agents agent-0..n-1,
// each an orchestrator of its own memoryRef acme/agent-i, rate limits off.
type groupEnv struct {
	s *sqlite.Store
	e *engine.Engine
}

var groupNow = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

func newGroupEnv(t *testing.T, agents int) groupEnv {
	t.Helper()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "memgov.db"), sqlite.Options{Key: testKey, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	pol := policy.Default()
	pol.Reputation.BurstLimit = 0
	for _, lim := range []*policy.RateLimit{&pol.RateLimits.Layers.Working, &pol.RateLimits.Layers.Session,
		&pol.RateLimits.Layers.Episodic, &pol.RateLimits.Layers.Semantic, &pol.RateLimits.Layers.Procedural} {
		lim.Writes = 0
	}
	e := engine.New(s, testKey, engine.WithPolicy(pol), engine.WithClock(func() time.Time { return groupNow }), engine.WithSnapshotGates(true))
	for i := range agents {
		if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: fmt.Sprintf("agent-%d", i), Role: memgov.Orchestrator, Tenant: "acme"}, "admin"); err != nil {
			t.Fatal(err)
		}
	}
	return groupEnv{s: s, e: e}
}

// holdCommits takes the store's one write connection until the returned
// function is called: writes judge on their snapshots meanwhile and wait in
// the commit queue.
func (g groupEnv) holdCommits(t *testing.T) (release func()) {
	t.Helper()
	held, free, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- g.s.Update(context.Background(), func(memgov.Tx) error {
			close(held)
			<-free
			return nil
		})
	}()
	<-held
	return func() {
		close(free)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// waitQueued returns a channel closed once n writes have joined the commit
// queue.
func waitQueued(e *engine.Engine, n int) <-chan struct{} {
	ch := make(chan struct{})
	var mu sync.Mutex
	joined := 0
	e.Writes().OnCommitQueue(func(int) {
		mu.Lock()
		defer mu.Unlock()
		if joined++; joined == n {
			close(ch)
		}
	})
	return ch
}

var groupWords = strings.Fields(`amber basalt cedar delta ember fjord granite harbor indigo juniper kelp lantern meadow nickel orchard
	pebble quartz raven saffron timber umber violet willow xenon yarrow zephyr anchor bramble cobalt dune estuary falcon glacier heron
	iris jasper kestrel lichen marble nectar opal prairie quill reef sorrel thistle upland vale wren yew zinnia acorn birch canyon
	drift elm fern grove hazel inlet jade knoll larch moss nettle oak pine quince rush sage tarn umbra vetch wharf yucca`)

// groupText is a sentence of eight words drawn for (agent, i): texts of
// different writes share few words, so no gate takes them for one another.
func groupText(agent, i int) string {
	r := rand.New(rand.NewPCG(uint64(agent), uint64(i)))
	ws := make([]string, 8)
	for j := range ws {
		ws[j] = groupWords[r.IntN(len(groupWords))]
	}
	return fmt.Sprintf("Site %d-%d survey notes: %s.", agent, i, strings.Join(ws, " "))
}

func groupRequest(t *testing.T, agent, ref, key, text string) memgov.WriteRequest {
	t.Helper()
	r, err := memgov.DecodeWriteRequest(req(agent, ref, key, text))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// logVersions reads every version entry on the log, by version id.
func (g groupEnv) logVersions(t *testing.T) map[string][]*oplog.Entry {
	t.Helper()
	out := map[string][]*oplog.Entry{}
	ctx := context.Background()
	err := g.s.View(ctx, func(rtx memgov.ReadTx) error {
		n, err := rtx.LogSize(ctx)
		if err != nil {
			return err
		}
		return rtx.LogRange(ctx, 1, n, func(en *oplog.Entry) error {
			switch en.Op {
			case oplog.Insert, oplog.Update, oplog.Merge, oplog.Stage:
				out[en.VersionID] = append(out[en.VersionID], en)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// verify checks the log and every served table against a replay, and that
// every version has its features of the running judge.
func (g groupEnv) verify(t *testing.T) {
	t.Helper()
	rep, err := g.e.Audit().VerifyReplay(context.Background())
	if err != nil || !rep.OK {
		t.Fatalf("audit verify --replay: %+v %v", rep, err)
	}
	st, err := g.e.Writes().IndexStatus(context.Background())
	if err != nil || !st.Fresh() || st.Current == 0 {
		t.Fatalf("index status %+v %v", st, err)
	}
}

// Writes that arrive while the log is busy judge on their snapshots and are
// committed together, in one transaction, each with its own log entry.
func TestGroupCommitSharesOneTransaction(t *testing.T) {
	const writers = 8
	g := newGroupEnv(t, writers)
	ctx := context.Background()
	queued := waitQueued(g.e, writers)
	release := g.holdCommits(t)
	res := make([]memgov.WriteResult, writers)
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			agent := fmt.Sprintf("agent-%d", i)
			res[i], errs[i] = g.e.Writes().Write(ctx, groupRequest(t, agent, "acme/"+agent, "note", groupText(i, 0)))
		})
	}
	<-queued
	release()
	wg.Wait()

	st := g.e.Writes().CommitStats()
	// The first write was the only one under way: judged in the commit.
	if st.Writes != writers || st.LargestBatch < writers/2 || st.Transactions >= writers || st.FromSnapshot != writers-1 || st.InCommit != 1 || st.Rejudged != 0 {
		t.Fatalf("commit stats %+v: want %d writes, all but the first from their snapshots, in fewer than %d transactions", st, writers, writers)
	}
	versions := g.logVersions(t)
	lsns := map[int64]bool{}
	for i, r := range res {
		if errs[i] != nil || r.Status != memgov.StatusCommitted {
			t.Fatalf("writer %d: %+v %v", i, r, errs[i])
		}
		es := versions[r.VersionID]
		if len(es) != 1 || es[0].LSN != r.LSN || es[0].Actor != fmt.Sprintf("agent-%d", i) || lsns[r.LSN] {
			t.Fatalf("writer %d: result %+v; log entries %v", i, r, es)
		}
		lsns[r.LSN] = true
	}
	if len(versions) != writers {
		t.Fatalf("%d versions on the log, want %d", len(versions), writers)
	}
	g.verify(t)
}

// Conflicting writes that judged on the same snapshot are judged as if they
// came one after the other: the second is judged again against the first.
func TestConflictingConcurrentWritesAreJudgedInOrder(t *testing.T) {
	writes := func(t *testing.T) []memgov.WriteRequest {
		return []memgov.WriteRequest{
			groupRequest(t, "agent-1", "acme/agent-1", "filler", groupText(1, 0)),
			// the same key, twice: the second is a new version of the first
			groupRequest(t, "agent-0", "acme/agent-0", "plan", "The quarterly audit is scheduled for the first week of April."),
			groupRequest(t, "agent-0", "acme/agent-0", "plan", "The quarterly audit moved to the second week of April at the Leeds office."),
			// the same text under two keys: the second is a duplicate of the first
			groupRequest(t, "agent-0", "acme/agent-0", "dup-a", "Warehouse 7 closes at 18:00 on weekdays and at noon on Saturdays."),
			groupRequest(t, "agent-0", "acme/agent-0", "dup-b", "Warehouse 7 closes at 18:00 on weekdays and at noon on Saturdays."),
		}
	}
	ctx := context.Background()

	// One after the other, each waiting for the one before.
	seq := newGroupEnv(t, 2)
	var want []memgov.WriteResult
	for _, r := range writes(t) {
		res, err := seq.e.Writes().Write(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, res)
	}
	if want[2].ItemID != want[1].ItemID || want[4].Status == memgov.StatusCommitted && want[4].ItemID != want[3].ItemID && len(want[4].Links) == 0 {
		t.Fatalf("one after the other, the second write of a key or a text did not meet the first: %+v", want)
	}

	for _, snapshotAll := range []bool{false, true} {
		t.Run(fmt.Sprintf("snapshot every write %v", snapshotAll), func(t *testing.T) {
			concurrentInOrder(t, writes(t), want, snapshotAll)
		})
	}
}

// concurrentInOrder writes rs all at once, queued in this order behind a
// busy log, and compares their results with want, theirs one after the other.
func concurrentInOrder(t *testing.T, rs []memgov.WriteRequest, want []memgov.WriteResult, snapshotAll bool) {
	ctx := context.Background()
	g := newGroupEnv(t, 2)
	if snapshotAll {
		g.e.Writes().SnapshotEveryWrite()
	}
	got := make([]memgov.WriteResult, len(rs))
	errs := make([]error, len(rs))
	release := g.holdCommits(t)
	var wg sync.WaitGroup
	for i, r := range rs {
		queued := waitQueued(g.e, 1)
		wg.Go(func() { got[i], errs[i] = g.e.Writes().Write(ctx, r) })
		<-queued
	}
	release()
	wg.Wait()

	for i := range rs {
		if errs[i] != nil {
			t.Fatalf("write %d: %v", i, errs[i])
		}
		w, r := want[i], got[i]
		if r.Status != w.Status || r.Reason != w.Reason || r.Gate != w.Gate || len(r.Related) != len(w.Related) || len(r.Links) != len(w.Links) ||
			(r.ItemID == got[i-min(i, 1)].ItemID) != (w.ItemID == want[i-min(i, 1)].ItemID) {
			t.Errorf("write %d (%s): concurrently %s %s at %s (related %v, links %d), one after the other %s %s at %s (related %v, links %d)",
				i, rs[i].Key, r.Status, r.Reason, r.Gate, r.Related, len(r.Links), w.Status, w.Reason, w.Gate, w.Related, len(w.Links))
		}
	}
	st := g.e.Writes().CommitStats()
	judgedAgain := st.Rejudged
	if !snapshotAll {
		judgedAgain += st.InCommit - 1 // the first write was alone
	}
	if judgedAgain < 2 || st.Writes != int64(len(rs)) {
		t.Fatalf("commit stats %+v: the second of each conflicting pair was not judged again", st)
	}
	versions := g.logVersions(t)
	if es := versions[got[2].VersionID]; len(es) != 1 || es[0].PrevVersionID != got[1].VersionID {
		t.Fatalf("the second write of the key is not a version after the first: %v", es)
	}
	g.verify(t)
}

// Many writers at once, some writing the same memory as the same agent:
// every acknowledged write is on the log exactly once, at the position its
// result names, in the order its writer was answered; nothing else is.
func TestConcurrentWritersNeverLoseDuplicateOrReorder(t *testing.T) {
	const goroutines, each = 8, 20
	g := newGroupEnv(t, goroutines)
	ctx := context.Background()
	res := make([][]memgov.WriteResult, goroutines)
	errs := make(chan error, goroutines)
	var wg sync.WaitGroup
	for c := range goroutines {
		// Writers 6 and 7 are agent-6 twice, into one memory.
		agent := fmt.Sprintf("agent-%d", min(c, 6))
		wg.Go(func() {
			for i := range each {
				r, err := g.e.Writes().Write(ctx, groupRequest(t, agent, "acme/"+agent, fmt.Sprintf("w%d-%03d", c, i), groupText(c, i)))
				if err != nil {
					errs <- fmt.Errorf("writer %d, write %d: %w", c, i, err)
					return
				}
				res[c] = append(res[c], r)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	versions := g.logVersions(t)
	acked := 0
	for c, rs := range res {
		last := int64(0)
		for i, r := range rs {
			if r.Status != memgov.StatusCommitted {
				t.Fatalf("writer %d, write %d: %s %s (%s)", c, i, r.Status, r.Reason, r.Detail)
			}
			es := versions[r.VersionID]
			if len(es) != 1 || es[0].LSN != r.LSN || es[0].LSN <= last {
				t.Fatalf("writer %d, write %d: result at LSN %d after %d; log entries %v", c, i, r.LSN, last, es)
			}
			p, err := es[0].DecodePayload()
			if err != nil || p.Key != fmt.Sprintf("w%d-%03d", c, i) || !strings.Contains(string(p.Content), groupText(c, i)) {
				t.Fatalf("writer %d, write %d: the log holds %s %s (%v)", c, i, p.Key, p.Content, err)
			}
			last = r.LSN
			acked++
		}
	}
	if acked != goroutines*each || len(versions) != acked {
		t.Fatalf("%d writes acknowledged, %d versions on the log", acked, len(versions))
	}
	if st := g.e.Writes().CommitStats(); st.Writes != int64(acked) {
		t.Fatalf("commit stats %+v for %d writes", st, acked)
	}
	g.verify(t)
}
