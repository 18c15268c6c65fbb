package writes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// This file is the commit path of a governed write when several writers
// arrive at once.
//
// With Config.SnapshotGates (engine.WithSnapshotGates), a write's gates run
// first on a read snapshot of the store, outside the write transaction, so
// concurrent writers judge in parallel. What the pipeline would write (its log entry, its outcome, its
// model vector, its features) is held, not written. The write then joins a queue; one committer drains the
// queue into a single store transaction (group commit), in which each write
// still gets its own log entry, proof and outcome.
//
// Before a held write is applied, the committer checks that nothing it read
// has changed since its snapshot: no log entry appended since then touches
// its memoryRef, its agent, an item its evidence cites, or its idempotency
// token, and no entry since is an administrative one (a principal, a lease,
// a policy decision, a review, a baseline: anything but a version of another
// agent's memory); and no write this engine committed since (outcomes are not
// logged) came from the same agent. When something has changed, the write's
// whole pipeline runs again inside the commit transaction, where it sees
// every write before it, the writes of its own batch included: conflicting
// writes are judged as if they came one after the other, in queue order.
//
// A write that is the only one under way gains nothing from a snapshot and
// is judged in the commit transaction straight away; so is one that starts
// beside another write of its agent or memory, whose snapshot would change
// before its commit. A write whose pipeline would do more than append one
// version, record its outcome and store its vectors (a suspension, a drift
// episode, a quarantine, a read of what it has just written) is not held: it
// runs inside the commit transaction too, exactly as it would alone.
//
// A batch is one transaction: a write acknowledged is committed with its
// batch, and a batch that fails is rolled back whole and its writes are
// committed one by one, each with its own error.

// maxCommitBatch bounds the writes one commit transaction takes.
const maxCommitBatch = 64

// maxCommitMarks bounds the committed writes remembered for the conflict
// check; a write whose snapshot is older than all of them is re-judged.
const maxCommitMarks = 4096

// groupCommit is an engine's queue of writes waiting for the log.
type groupCommit struct {
	mu      sync.Mutex
	queue   []*heldWrite
	running bool
	seq     uint64       // writes committed through the queue
	marks   []commitMark // the latest of them, oldest first
	stats   CommitStats
	// inflight counts the writes under way by agent ("a:" prefix) and by
	// memoryRef ("r:"): a write that starts beside another of its agent or
	// its memory would find its snapshot changed, so it is judged in the
	// commit transaction straight away.
	inflight map[string]int
	// snapshots turns judging on read snapshots on (Config.SnapshotGates);
	// alwaysSnapshot judges every write on its snapshot first, even one
	// alone (tests of the conflict check).
	snapshots, alwaysSnapshot bool
	// queued, when set, is told the number of writes waiting each time
	// one joins the queue (tests hold the commit and wait for a batch).
	queued func(waiting int)
}

// CommitStats counts what the commit path did since the engine started.
type CommitStats struct {
	// Transactions is the number of commit transactions, Writes the
	// writes they committed, and LargestBatch the most one took.
	Transactions int64 `json:"transactions"`
	Writes       int64 `json:"writes"`
	LargestBatch int   `json:"largest_batch"`
	// FromSnapshot writes were judged on a read snapshot and applied as
	// judged; Rejudged ones were judged on a snapshot and again in the
	// commit transaction (what they read had changed); InCommit ones were
	// judged in the commit transaction only (the only write under way, one
	// beside another of its agent or memory, or one that writes more than a
	// version).
	FromSnapshot int64 `json:"from_snapshot"`
	Rejudged     int64 `json:"rejudged"`
	InCommit     int64 `json:"in_commit"`
}

// CommitStats reports what the commit path has done.
func (s *Service) CommitStats() CommitStats {
	s.commits.mu.Lock()
	defer s.commits.mu.Unlock()
	return s.commits.stats
}

// commitMark is what the conflict check needs of a committed write.
type commitMark struct {
	seq               uint64
	agent, ref, token string
}

// heldWrite is one write waiting for the committer.
type heldWrite struct {
	run func(memgov.Tx) error // the write's pipeline, from its first step
	res *memgov.WriteResult   // the result run fills in

	agent, ref, token string
	evidence          map[string]bool // item ids the write's evidence cites

	snapLSN int64  // the log head its gates read
	snapSeq uint64 // groupCommit.seq before its snapshot
	held    []heldOp
	direct  bool // run inside the commit transaction, not from the snapshot

	// Rerun reports that the pipeline ran again in the commit transaction.
	rerun bool
	// snapped reports a snapshot run whose writes were held.
	snapped bool
	err     error
	done    chan struct{}
}

func (h *heldWrite) mark() commitMark {
	return commitMark{agent: h.agent, ref: h.ref, token: h.token}
}

// touches reports whether a committed write may change what h read.
func (m commitMark) touches(h *heldWrite) bool {
	return m.agent == h.agent || m.ref == h.ref || (h.token != "" && m.token == h.token)
}

// heldOp is one write a snapshot run held back.
type heldOp struct {
	entry   *oplog.Entry // Append
	outcome *memgov.Outcome
	vector  *memgov.ModelVector
	feat    *memgov.VersionFeatures
}

// commitWrite commits a write whose pipeline is run: on a snapshot first,
// then through the queue (see the top of this file). run sets *res.
func (s *Service) commitWrite(ctx context.Context, req *memgov.WriteRequest, res *memgov.WriteResult, run func(memgov.Tx) error) error {
	h := &heldWrite{run: run, res: res, agent: req.SourceAgentID, ref: req.MemoryRef, token: req.IdempotencyToken, done: make(chan struct{})}
	for _, ev := range req.EvidenceRefs {
		if ev.SourceItemID != "" {
			if h.evidence == nil {
				h.evidence = map[string]bool{}
			}
			h.evidence[ev.SourceItemID] = true
		}
	}
	s.commits.mu.Lock()
	h.snapSeq = s.commits.seq
	if s.commits.inflight == nil {
		s.commits.inflight = map[string]int{}
	}
	// A write alone gains nothing from a snapshot: it is judged in the
	// commit transaction straight away, as is one beside another of its
	// agent or memory.
	alone := len(s.commits.inflight) == 0
	busy := !s.commits.alwaysSnapshot && (!s.commits.snapshots || alone || s.commits.inflight["a:"+h.agent] > 0 || s.commits.inflight["r:"+h.ref] > 0)
	s.commits.inflight["a:"+h.agent]++
	s.commits.inflight["r:"+h.ref]++
	s.commits.mu.Unlock()
	defer func() {
		s.commits.mu.Lock()
		for _, k := range []string{"a:" + h.agent, "r:" + h.ref} {
			if s.commits.inflight[k]--; s.commits.inflight[k] <= 0 {
				delete(s.commits.inflight, k)
			}
		}
		s.commits.mu.Unlock()
	}()
	err := errBusy
	if !busy {
		err = s.snapshotRun(ctx, h)
	}
	h.snapped = err == nil
	if err != nil {
		// Whatever stopped the snapshot run (a write it may not hold, a
		// failed read) is met again, or not, in the commit transaction.
		h.direct, h.held = true, nil
		*res = memgov.WriteResult{}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	s.commits.mu.Lock()
	s.commits.queue = append(s.commits.queue, h)
	if s.commits.queued != nil {
		s.commits.queued(len(s.commits.queue))
	}
	if !s.commits.running {
		s.commits.running = true
		go s.drainCommits()
	}
	s.commits.mu.Unlock()
	<-h.done
	return h.err
}

// errBusy sends a write that starts beside another of its agent or memory
// to the commit transaction.
var errBusy = errors.New("another write of the same agent or memory is under way")

// snapshotRun runs h's pipeline on a read snapshot, holding its writes.
func (s *Service) snapshotRun(ctx context.Context, h *heldWrite) error {
	return s.store.View(ctx, func(rtx memgov.ReadTx) error {
		var err error
		if h.snapLSN, err = rtx.LogSize(ctx); err != nil {
			return err
		}
		return h.run(&snapshotTx{ReadTx: rtx, h: h, s: s})
	})
}

// drainCommits commits the queue, a batch per transaction, until it is empty.
func (s *Service) drainCommits() {
	for {
		s.commits.mu.Lock()
		n := min(len(s.commits.queue), maxCommitBatch)
		if n == 0 {
			s.commits.running = false
			s.commits.mu.Unlock()
			return
		}
		batch := s.commits.queue[:n:n]
		s.commits.queue = s.commits.queue[n:]
		s.commits.mu.Unlock()
		s.commitBatch(batch)
	}
}

func (s *Service) commitBatch(batch []*heldWrite) {
	// The batch outlives any one writer's request: its transaction is not
	// cancelled with the first writer's context.
	ctx := context.Background()
	err := s.store.Update(ctx, func(tx memgov.Tx) error {
		var before []commitMark
		for _, h := range batch {
			if err := s.applyHeld(ctx, tx, h, before); err != nil {
				return err
			}
			before = append(before, h.mark())
		}
		return nil
	})
	if err == nil {
		s.commits.mu.Lock()
		s.commits.stats.Transactions++
		s.commits.stats.LargestBatch = max(s.commits.stats.LargestBatch, len(batch))
		s.commits.mu.Unlock()
		s.finish(batch...)
		return
	}
	if len(batch) == 1 {
		batch[0].err = err
		s.finish(batch...)
		return
	}
	// One write's failure rolled the batch back: each write alone, with its
	// own error.
	for _, h := range batch {
		h.rerun = false
		h.err = s.store.Update(ctx, func(tx memgov.Tx) error { return s.applyHeld(ctx, tx, h, nil) })
		if h.err == nil {
			s.commits.mu.Lock()
			s.commits.stats.Transactions++
			s.commits.stats.LargestBatch = max(s.commits.stats.LargestBatch, 1)
			s.commits.mu.Unlock()
		}
		s.finish(h)
	}
}

// finish remembers committed writes for later conflict checks and hands
// every write its result.
func (s *Service) finish(hs ...*heldWrite) {
	s.commits.mu.Lock()
	for _, h := range hs {
		if h.err == nil {
			s.commits.stats.Writes++
			switch {
			case !h.snapped:
				s.commits.stats.InCommit++
			case h.rerun:
				s.commits.stats.Rejudged++
			default:
				s.commits.stats.FromSnapshot++
			}
			s.commits.seq++
			m := h.mark()
			m.seq = s.commits.seq
			s.commits.marks = append(s.commits.marks, m)
		}
	}
	if extra := len(s.commits.marks) - maxCommitMarks; extra > 0 {
		s.commits.marks = append(s.commits.marks[:0:0], s.commits.marks[extra:]...)
	}
	s.commits.mu.Unlock()
	for _, h := range hs {
		close(h.done)
	}
}

// applyHeld applies a held write in tx, or runs its pipeline there when it
// was not held or what it read has changed. before are the writes of the
// same transaction applied ahead of it.
func (s *Service) applyHeld(ctx context.Context, tx memgov.Tx, h *heldWrite, before []commitMark) error {
	if !h.direct {
		changed, err := s.changedSince(ctx, tx, h, before)
		if err != nil {
			return commitErr("check the snapshot of %s: %w", h.ref, err)
		}
		if !changed {
			return h.apply(ctx, tx)
		}
	}
	h.rerun = true
	*h.res = memgov.WriteResult{}
	return h.run(tx)
}

// apply writes what the snapshot run held, in its order, and gives the
// result its log position.
func (h *heldWrite) apply(ctx context.Context, tx memgov.Tx) error {
	// The engine's transaction indexes what it appends; a held entry's
	// features were computed on the snapshot and are held after it.
	appender, indexed := tx, false
	if it, ok := tx.(indexingTx); ok {
		appender, indexed = it.Tx, true
	}
	for _, op := range h.held {
		var err error
		switch {
		case op.entry != nil:
			if err = appender.Append(ctx, op.entry); err == nil && op.entry.VersionID == h.res.VersionID {
				h.res.LSN = op.entry.LSN
			}
		case op.feat != nil && !indexed:
			// tx.Append indexed the entry itself.
		case op.outcome != nil:
			err = tx.RecordOutcome(ctx, *op.outcome)
		case op.vector != nil:
			err = tx.PutModelVector(ctx, *op.vector)
		case op.feat != nil:
			err = tx.PutFeatures(ctx, *op.feat)
		}
		if err != nil {
			return commitErr("apply %s to %s: %w", h.res.Key, h.ref, err)
		}
	}
	return nil
}

// errChanged stops the log scan at the first change.
var errChanged = errors.New("changed")

// changedSince reports whether anything h's gates read may have changed
// since its snapshot (the conditions are at the top of this file).
func (s *Service) changedSince(ctx context.Context, tx memgov.Tx, h *heldWrite, before []commitMark) (bool, error) {
	for _, m := range before {
		if m.touches(h) {
			return true, nil
		}
	}
	s.commits.mu.Lock()
	marks := s.commits.marks
	lost := len(marks) > 0 && marks[0].seq > h.snapSeq+1
	changed := lost
	for i := len(marks) - 1; i >= 0 && marks[i].seq > h.snapSeq && !changed; i-- {
		changed = marks[i].touches(h)
	}
	s.commits.mu.Unlock()
	if changed {
		return true, nil
	}
	head, err := tx.LogSize(ctx)
	if err != nil || head <= h.snapLSN {
		return false, err
	}
	err = tx.LogRange(ctx, h.snapLSN+1, head, func(en *oplog.Entry) error {
		switch en.Op {
		case oplog.Insert, oplog.Update, oplog.Merge, oplog.Stage:
		default:
			return errChanged
		}
		if en.MemoryRef == h.ref || en.Actor == h.agent || h.evidence[en.ItemID] {
			return errChanged
		}
		if h.token != "" {
			p, err := en.DecodePayload()
			if err != nil {
				return errChanged
			}
			if meta, err := decodeVersionData(p); err != nil || meta.IdempotencyToken == h.token {
				return errChanged
			}
		}
		return nil
	})
	if errors.Is(err, errChanged) {
		return true, nil
	}
	return false, err
}

// snapshotTx is the transaction a write's gates run in on a read snapshot:
// reads come from the snapshot; the writes of an ordinary governed write are
// held for the committer; any other write stops the run, and the write then
// runs in the commit transaction.
type snapshotTx struct {
	memgov.ReadTx
	h *heldWrite
	s *Service
}

// errNotHeld stops a snapshot run at a write it does not hold.
var errNotHeld = errors.New("this write runs in the commit transaction")

func (t *snapshotTx) refuse(what string) error { return fmt.Errorf("%w: %s", errNotHeld, what) }

func (t *snapshotTx) Append(ctx context.Context, en *oplog.Entry) error {
	switch en.Op {
	case oplog.Insert, oplog.Update, oplog.Merge, oplog.Stage:
		t.h.held = append(t.h.held, heldOp{entry: en})
		// The version's features are computed here, beside the other
		// writers, and held with it (PutFeatures), not in the commit.
		return t.s.indexEntry(ctx, t, en)
	}
	return t.refuse("append " + string(en.Op))
}

func (t *snapshotTx) RecordOutcome(_ context.Context, o memgov.Outcome) error {
	t.h.held = append(t.h.held, heldOp{outcome: &o})
	return nil
}

func (t *snapshotTx) PutModelVector(_ context.Context, v memgov.ModelVector) error {
	t.h.held = append(t.h.held, heldOp{vector: &v})
	return nil
}

func (t *snapshotTx) PutFeatures(_ context.Context, f memgov.VersionFeatures) error {
	t.h.held = append(t.h.held, heldOp{feat: &f})
	return nil
}

// AgentOutcomes and ActiveWrittenBy are read after the write's own outcome
// (the quarantine check): the snapshot does not hold what the run has
// written, so a run that reads them after writing goes to the commit
// transaction.
func (t *snapshotTx) AgentOutcomes(ctx context.Context, agent string, since time.Time) (int, int, error) {
	if len(t.h.held) > 0 {
		return 0, 0, t.refuse("read outcomes after writing")
	}
	return t.ReadTx.AgentOutcomes(ctx, agent, since)
}

func (t *snapshotTx) ActiveWrittenBy(ctx context.Context, agent string, since time.Time) ([]memgov.Version, error) {
	if len(t.h.held) > 0 {
		return nil, t.refuse("read recent writes after writing")
	}
	return t.ReadTx.ActiveWrittenBy(ctx, agent, since)
}

func (t *snapshotTx) PutStateCache(context.Context, memgov.StateCache) error {
	return t.refuse("state cache")
}
func (t *snapshotTx) ClearDirty(context.Context, string) error { return t.refuse("clear dirty") }
func (t *snapshotTx) SetGCCursor(context.Context, memgov.Layer, string) error {
	return t.refuse("gc cursor")
}
func (t *snapshotTx) SecureDelete(context.Context) error { return t.refuse("secure delete") }
func (t *snapshotTx) RestoreErasureResidue(context.Context, memgov.ErasureResidue) error {
	return t.refuse("restore erasure residue")
}
func (t *snapshotTx) RecordAccess(context.Context, []string, time.Time) error {
	return t.refuse("record access")
}
func (t *snapshotTx) RecordRetrieval(context.Context, string, string, string, time.Time, map[string]time.Duration) error {
	return t.refuse("record retrieval")
}
func (t *snapshotTx) RecordRead(context.Context, string, string, string, time.Time, []string) error {
	return t.refuse("record read")
}
func (t *snapshotTx) FoldReads(context.Context) error { return t.refuse("fold reads") }
func (t *snapshotTx) RecordFeedback(context.Context, string, []string, time.Time) (int, error) {
	return 0, t.refuse("record feedback")
}
func (t *snapshotTx) RecordTaskOutcome(context.Context, memgov.TaskOutcomeRow) error {
	return t.refuse("record task outcome")
}
func (t *snapshotTx) CountLease(context.Context, time.Time, bool) error {
	return t.refuse("count lease")
}
func (t *snapshotTx) RecordRevalidation(context.Context, string, time.Time, bool, float64) error {
	return t.refuse("record revalidation")
}
func (t *snapshotTx) AddDeadLetter(context.Context, memgov.DeadLetter) (int64, error) {
	return 0, t.refuse("dead letter")
}

var _ memgov.Tx = (*snapshotTx)(nil)

// decodeVersionData reads the pipeline data of a version payload.
func decodeVersionData(p oplog.Payload) (oplog.VersionData, error) {
	var m oplog.VersionData
	if len(p.Data) == 0 {
		return m, nil
	}
	err := json.Unmarshal(p.Data, &m)
	return m, err
}
