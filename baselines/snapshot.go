package baselines

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/audit"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
)

// The memory map of a memoryRef is {key: content} over its ACTIVE, unexpired
// versions; versions.content is already each item's RFC 8785 fragment, so the
// snapshot_hash streams the stored bytes into a canon.Hasher without
// re-canonicalising the map (spec §3.2.6.1).

// hashRows hashes a key-ordered stream of map rows. Rows come in SQLite's byte
// order, which equals RFC 8785's UTF-16 order except where a character above
// U+FFFF meets one in U+E000..U+FFFF; on the first out-of-order key the caller
// re-reads the rows into memory, sorts them with canon.SortEntries and hashes
// again. w, if not nil, receives the exact bytes hashed.
func hashRows(alg canon.Algorithm, w io.Writer, scan func(func(memgov.MapRow) error) error) (memgov.StateCache, error) {
	sc := memgov.StateCache{Alg: alg}
	d, err := canon.NewDigest(alg)
	if err != nil {
		return sc, fmt.Errorf("%w: %v", memgov.ErrInvalid, err)
	}
	var buf bytes.Buffer
	var sink io.Writer = d
	if w != nil {
		sink = io.MultiWriter(d, &buf)
	}
	mw := canon.NewMapWriter(sink)
	errOrder := errors.New("out of order")
	var prev string
	first := true
	err = scan(func(r memgov.MapRow) error {
		if !first && canon.CompareKeys(prev, r.Key) >= 0 {
			return errOrder
		}
		first, prev = false, r.Key
		if err := mw.Add(r.Key, r.Value); err != nil {
			return err
		}
		noteExpiry(&sc, r.ExpiresAt)
		sc.Items++
		return nil
	})
	if errors.Is(err, errOrder) {
		sc = memgov.StateCache{Alg: alg}
		var ents []canon.Entry
		exp := map[string]*time.Time{}
		if err := scan(func(r memgov.MapRow) error {
			ents = append(ents, canon.Entry{Key: r.Key, Value: bytes.Clone(r.Value)})
			if r.ExpiresAt != nil {
				exp[r.Key] = r.ExpiresAt
			}
			return nil
		}); err != nil {
			return sc, err
		}
		canon.SortEntries(ents)
		d, _ = canon.NewDigest(alg)
		buf.Reset()
		sink = d
		if w != nil {
			sink = io.MultiWriter(d, &buf)
		}
		mw = canon.NewMapWriter(sink)
		for _, en := range ents {
			if err := mw.Add(en.Key, en.Value); err != nil {
				return sc, fmt.Errorf("%w: memory map: %v", memgov.ErrTampered, err)
			}
			noteExpiry(&sc, exp[en.Key])
			sc.Items++
		}
	} else if err != nil {
		if errors.Is(err, canon.ErrKeyOrder) || errors.Is(err, canon.ErrInvalidEntry) {
			return sc, fmt.Errorf("%w: memory map: %v", memgov.ErrTampered, err)
		}
		return sc, err
	}
	if err := mw.Close(); err != nil {
		return sc, err
	}
	sc.Bytes = mw.N()
	sc.Hash = d.Sum()
	if w != nil {
		if _, err := w.Write(buf.Bytes()); err != nil {
			return sc, err
		}
	}
	return sc, nil
}

func noteExpiry(sc *memgov.StateCache, t *time.Time) {
	if t != nil && (sc.NextExpiry == nil || t.Before(*sc.NextExpiry)) {
		tt := *t
		sc.NextExpiry = &tt
	}
}

// stateHash hashes the materialised memory map of ref at now. While no row of
// ref was changed outside memgov's own apply (no dirty row), the materialised
// map is the governed one, the fold of the whole op log, which the store keeps
// as a compact current-value table: it is hashed from there. Otherwise, or
// with materialised set (a deep check that trusts no dirty mark), the rows of
// the versions table are hashed.
// StateHash returns the hash, with alg, of ref's memory map at now, read from
// br: what a cached snapshot hash must equal while it is served.
func (svc *Service) StateHash(ctx context.Context, br memgov.BaselineReader, ref string, now time.Time, alg canon.Algorithm) (string, error) {
	st, err := svc.stateHash(ctx, br, ref, now, alg, nil, false)
	return st.Hash, err
}

func (svc *Service) stateHash(ctx context.Context, br memgov.BaselineReader, ref string, now time.Time, alg canon.Algorithm, w io.Writer, materialised bool) (memgov.StateCache, error) {
	head, err := br.MemHead(ctx, ref)
	if err != nil {
		return memgov.StateCache{}, err
	}
	if !materialised {
		dirty, err := br.Dirty(ctx, ref)
		if err != nil {
			return memgov.StateCache{}, err
		}
		materialised = dirty
	}
	scan := func(fn func(memgov.MapRow) error) error { return br.FoldMap(ctx, ref, head.TreeSize, now, fn) }
	if materialised {
		scan = func(fn func(memgov.MapRow) error) error { return br.MemoryMap(ctx, ref, now, fn) }
	}
	sc, err := hashRows(alg, w, scan)
	if err != nil {
		return sc, err
	}
	sc.MemoryRef, sc.TreeSize = ref, head.TreeSize
	return sc, nil
}

// foldHash hashes the governed map: the fold of the op log's first size operations.
func foldHash(ctx context.Context, br memgov.BaselineReader, ref string, size uint64, now time.Time, alg canon.Algorithm) (memgov.StateCache, error) {
	sc, err := hashRows(alg, nil, func(fn func(memgov.MapRow) error) error { return br.FoldMap(ctx, ref, size, now, fn) })
	sc.MemoryRef, sc.TreeSize = ref, size
	return sc, err
}

// cachedHash returns the cached snapshot hash of ref when it is still valid:
// same op log size, no dirty row, nothing included has expired since.
func cachedHash(ctx context.Context, br memgov.BaselineReader, ref string, alg canon.Algorithm, head memgov.MemHead, now time.Time) (string, bool, error) {
	c, ok, err := br.StateCache(ctx, ref)
	if err != nil || !ok {
		return "", false, err
	}
	if c.Alg != alg || c.TreeSize != head.TreeSize || c.NextExpiry != nil && !now.Before(*c.NextExpiry) {
		return "", false, nil
	}
	dirty, err := br.Dirty(ctx, ref)
	if err != nil || dirty {
		return "", false, err
	}
	return c.Hash, true, nil
}

// governedIntact reports whether the materialised memory of ref equals the
// governed map, the fold of its op log. When no row of ref was changed outside
// memgov's own apply (no dirty row) that holds without hashing; otherwise both
// maps are hashed. The hash of the materialised map is returned when computed.
// When the maps are equal and w is not nil (a write transaction), the dirty
// marks are cleared through w.
func (svc *Service) governedIntact(ctx context.Context, tx memgov.ReadTx, w memgov.BaselineWriter, ref string) (bool, string, error) {
	dirty, err := tx.Dirty(ctx, ref)
	if err != nil || !dirty {
		return err == nil, "", err
	}
	now := svc.now()
	head, err := tx.MemHead(ctx, ref)
	if err != nil {
		return false, "", err
	}
	cur, err := svc.stateHash(ctx, tx, ref, now, canon.SHA256, nil, true)
	if errors.Is(err, memgov.ErrTampered) {
		return false, "", nil
	}
	if err != nil {
		return false, "", err
	}
	gov, err := foldHash(ctx, tx, ref, head.TreeSize, now, canon.SHA256)
	if err != nil {
		return false, "", err
	}
	if cur.Hash != gov.Hash {
		return false, cur.Hash, nil
	}
	// The dirty rows changed nothing the map shows: forget them, if we may write.
	if w != nil {
		if err := w.ClearDirty(ctx, ref); err != nil {
			return false, "", err
		}
	}
	return true, cur.Hash, nil
}

// SnapshotInfo describes a hashed memory map.
type SnapshotInfo struct {
	MemoryRef string `json:"memory_ref"`
	Hash      string `json:"snapshot_hash"`
	Items     int    `json:"items"`
	Bytes     int64  `json:"bytes"`
	LSN       int64  `json:"lsn"`
}

// SnapshotHash returns the spec §3.2.6.1 snapshot_hash of ref's memory map now.
func (svc *Service) SnapshotHash(ctx context.Context, ref string, alg canon.Algorithm) (SnapshotInfo, error) {
	return svc.ExportSnapshot(ctx, ref, alg, nil)
}

// SnapshotHashAt returns the snapshot_hash of ref's memory map as it stands
// at at, reading only: unlike SnapshotHash it appends no EXPIRE entry for
// what is due (an item past its expiry at at is left out of the map all the
// same). Two stores holding the same log give the same hash for the same at.
func (svc *Service) SnapshotHashAt(ctx context.Context, ref string, at time.Time, alg canon.Algorithm) (SnapshotInfo, error) {
	if alg == "" {
		alg = canon.SHA256
	}
	info := SnapshotInfo{MemoryRef: ref}
	err := svc.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		if info.LSN, err = tx.LogSize(ctx); err != nil {
			return err
		}
		sc, err := svc.stateHash(ctx, tx, ref, at.UTC().Truncate(time.Millisecond), alg, nil, false)
		if err != nil {
			return err
		}
		info.Hash, info.Items, info.Bytes = sc.Hash, sc.Items, sc.Bytes
		return nil
	})
	return info, err
}

// ExportSnapshot writes the exact canonical map that SnapshotHash hashes to w
// (if not nil) and returns its hash: anyone can recompute the hash from the
// exported bytes with any RFC 8785 library.
func (svc *Service) ExportSnapshot(ctx context.Context, ref string, alg canon.Algorithm, w io.Writer) (SnapshotInfo, error) {
	if alg == "" {
		alg = canon.SHA256
	}
	info := SnapshotInfo{MemoryRef: ref}
	if _, err := svc.ExpireDue(ctx, ref); err != nil {
		return info, err
	}
	err := svc.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		if info.LSN, err = tx.LogSize(ctx); err != nil {
			return err
		}
		sc, err := svc.stateHash(ctx, tx, ref, svc.now(), alg, w, false)
		if err != nil {
			return err
		}
		info.Hash, info.Items, info.Bytes = sc.Hash, sc.Items, sc.Bytes
		return nil
	})
	return info, err
}

// MemoryCheckpointView is the spec §3.2.6.2 checkpoint as `memgov checkpoint show` prints it.
type MemoryCheckpointView struct {
	MemoryRoot string    `json:"memory_root"`
	TreeSize   uint64    `json:"tree_size"`
	Seq        uint64    `json:"seq"`
	ApprovedAt time.Time `json:"approved_at"`
	TTLSeconds int64     `json:"ttl_seconds"`
	// Beyond the spec's fields: the op log's own size and the last verdict.
	LogSize     uint64 `json:"log_tree_size"`
	LogRoot     string `json:"log_root"`
	LastVerdict string `json:"last_verdict,omitempty"`
	LastDetail  string `json:"last_detail,omitempty"`
	BaselineID  string `json:"baseline_id"`
	// The algorithms: SHA-256 leaves and nodes, the am-mem-kv leaf tag and the
	// RFC 9162 Merkle Tree Hash (spec §3.2.6.2).
	HashAlg string `json:"hash_alg"`
	LeafTag string `json:"leaf_tag"`
	Tree    string `json:"chain_mode"`
}

// MemoryCheckpoint returns the latest accepted checkpoint of ref's op log.
func (svc *Service) MemoryCheckpoint(ctx context.Context, ref string) (MemoryCheckpointView, error) {
	var v MemoryCheckpointView
	if _, err := svc.ExpireDue(ctx, ref); err != nil {
		return v, err
	}
	err := svc.store.View(ctx, func(tx memgov.ReadTx) error {
		cp, err := tx.LatestCheckpoint(ctx, ref)
		if err != nil {
			return err
		}
		head, err := tx.MemHead(ctx, ref)
		if err != nil {
			return err
		}
		v = MemoryCheckpointView{MemoryRoot: cp.Root.Prefixed(), TreeSize: cp.TreeSize, Seq: cp.Seq, ApprovedAt: cp.ApprovedAt,
			TTLSeconds: cp.TTLSeconds, LogSize: head.TreeSize, LogRoot: head.Root.Prefixed(), LastVerdict: head.LastVerdict,
			LastDetail: head.LastDetail, BaselineID: cp.BaselineID, HashAlg: audit.HashAlgorithm, LeafTag: audit.MemoryLeafTag, Tree: audit.ChainMerkleLog}
		return nil
	})
	return v, err
}

// MemoryOps calls fn for every operation of ref's op log, in order.
func (svc *Service) MemoryOps(ctx context.Context, ref string, fn func(memgov.MemOp) error) error {
	if _, err := svc.ExpireDue(ctx, ref); err != nil {
		return err
	}
	return svc.store.View(ctx, func(tx memgov.ReadTx) error {
		head, err := tx.MemHead(ctx, ref)
		if err != nil {
			return err
		}
		return tx.MemOps(ctx, ref, 0, head.TreeSize, fn)
	})
}

// MemoryProof is an RFC 9162 consistency proof between two sizes of a
// memoryRef's op log.
type MemoryProof struct {
	MemoryRef string   `json:"memory_ref"`
	From      uint64   `json:"from_size"`
	To        uint64   `json:"to_size"`
	OldRoot   string   `json:"old_root"`
	NewRoot   string   `json:"new_root"`
	Proof     []string `json:"proof"`
}

// ProveMemory returns the consistency proof from size from to the whole op log
// of ref, checked with merkle.VerifyConsistency before it is returned.
func (svc *Service) ProveMemory(ctx context.Context, ref string, from uint64) (MemoryProof, error) {
	return svc.ProveMemoryRange(ctx, ref, from, 0)
}

// memLeaves returns the leaves of ref's op log up to size (0: all of it) and
// the log's size.
func memLeaves(ctx context.Context, br memgov.BaselineReader, ref string, size uint64) ([]merkle.Hash, uint64, error) {
	head, err := br.MemHead(ctx, ref)
	if err != nil {
		return nil, 0, err
	}
	if size == 0 {
		size = head.TreeSize
	}
	if size > head.TreeSize {
		return nil, head.TreeSize, fmt.Errorf("%w: size %d is beyond the op log of %s (%d operations)", memgov.ErrInvalid, size, ref, head.TreeSize)
	}
	leaves := make([]merkle.Hash, 0, size)
	if err := br.MemOps(ctx, ref, 0, size, func(o memgov.MemOp) error {
		leaves = append(leaves, o.Leaf)
		return nil
	}); err != nil {
		return nil, head.TreeSize, err
	}
	return leaves, head.TreeSize, nil
}

// ProveMemoryRange returns the consistency proof from size from to size to
// (0: the whole op log) of ref, checked before it is returned.
func (svc *Service) ProveMemoryRange(ctx context.Context, ref string, from, to uint64) (MemoryProof, error) {
	var p MemoryProof
	if _, err := svc.ExpireDue(ctx, ref); err != nil {
		return p, err
	}
	err := svc.store.View(ctx, func(tx memgov.ReadTx) error {
		leaves, _, err := memLeaves(ctx, tx, ref, to)
		if err != nil {
			return err
		}
		to = uint64(len(leaves))
		if from > to {
			return fmt.Errorf("%w: size %d is beyond size %d", memgov.ErrInvalid, from, to)
		}
		tree := merkle.NewTree(leaves)
		proof, err := tree.ConsistencyProof(from)
		if err != nil {
			return err
		}
		old, err := tree.RootAt(from)
		if err != nil {
			return err
		}
		if err := merkle.VerifyConsistency(from, to, old, tree.Root(), proof); err != nil {
			return fmt.Errorf("%w: %v", memgov.ErrTampered, err)
		}
		p = MemoryProof{MemoryRef: ref, From: from, To: to, OldRoot: old.Prefixed(), NewRoot: tree.Root().Prefixed(), Proof: merkle.Hexes(proof)}
		return nil
	})
	return p, err
}

// MemoryInclusion is an RFC 9162 audit path showing that the operation at
// Index of a memoryRef's op log is in the log of TreeSize operations.
type MemoryInclusion struct {
	MemoryRef string   `json:"memory_ref"`
	Index     uint64   `json:"seq"`
	Leaf      string   `json:"leaf"`
	TreeSize  uint64   `json:"tree_size"`
	Root      string   `json:"memory_root"`
	Proof     []string `json:"proof"`
}

// ProveMemoryInclusion returns the inclusion proof of the operation at index
// (0-based, as `memgov checkpoint ops` numbers them) in ref's op log of size
// operations (0: all of it), checked before it is returned.
func (svc *Service) ProveMemoryInclusion(ctx context.Context, ref string, index, size uint64) (MemoryInclusion, error) {
	var p MemoryInclusion
	if _, err := svc.ExpireDue(ctx, ref); err != nil {
		return p, err
	}
	err := svc.store.View(ctx, func(tx memgov.ReadTx) error {
		leaves, _, err := memLeaves(ctx, tx, ref, size)
		if err != nil {
			return err
		}
		if index >= uint64(len(leaves)) {
			return memgov.Inputf(memgov.ErrInvalid, "seq", "operation %d is not in the op log of %s (%d operations, numbered from 0)", index, ref, len(leaves))
		}
		proof, err := merkle.InclusionProof(leaves, index)
		if err != nil {
			return err
		}
		root := merkle.Root(leaves)
		if err := merkle.VerifyInclusion(leaves[index], index, uint64(len(leaves)), root, proof); err != nil {
			return fmt.Errorf("%w: %v", memgov.ErrTampered, err)
		}
		p = MemoryInclusion{MemoryRef: ref, Index: index, Leaf: leaves[index].String(), TreeSize: uint64(len(leaves)), Root: root.Prefixed(), Proof: merkle.Hexes(proof)}
		return nil
	})
	return p, err
}

// AcceptMemoryCheckpoint checks a spec §3.2.6.2 checkpoint a verifier holds against
// ref's latest accepted checkpoint: the same checkpoint is ACCEPT (nothing
// advanced); otherwise the advance from the held one to the latest is judged
// by merkle.AcceptAdvance (drift, rollback, expired, budget, in that order)
// with a consistency proof computed from the op log.
func (svc *Service) AcceptMemoryCheckpoint(ctx context.Context, ref string, held merkle.MemoryCheckpoint) (merkle.Verdict, MemoryProof, error) {
	var (
		v merkle.Verdict
		p MemoryProof
	)
	if _, err := svc.ExpireDue(ctx, ref); err != nil {
		return v, p, err
	}
	err := svc.store.View(ctx, func(tx memgov.ReadTx) error {
		cp, err := tx.LatestCheckpoint(ctx, ref)
		if err != nil {
			return err
		}
		next := merkle.MemoryCheckpoint{Root: cp.Root, TreeSize: cp.TreeSize, Seq: cp.Seq, ApprovedAt: cp.ApprovedAt, TTLSeconds: cp.TTLSeconds}
		if held.Root == next.Root && held.TreeSize == next.TreeSize && held.Seq == next.Seq && held.ApprovedAt.Equal(next.ApprovedAt) && held.TTLSeconds == next.TTLSeconds {
			v = merkle.Verdict{Code: merkle.CodeAccept, Detail: fmt.Sprintf("the held checkpoint is the latest (seq %d, tree_size %d)", next.Seq, next.TreeSize)}
			return nil
		}
		leaves, _, err := memLeaves(ctx, tx, ref, next.TreeSize)
		if err != nil {
			return err
		}
		var proof []merkle.Hash
		if held.TreeSize <= next.TreeSize {
			tree := merkle.NewTree(leaves)
			if proof, err = tree.ConsistencyProof(held.TreeSize); err != nil {
				return err
			}
			p = MemoryProof{MemoryRef: ref, From: held.TreeSize, To: next.TreeSize, OldRoot: held.Root.Prefixed(), NewRoot: next.Root.Prefixed(), Proof: merkle.Hexes(proof)}
		}
		v = merkle.AcceptAdvance(held, next, proof, svc.now(), merkle.Budget{MaxOps: uint64(max(svc.policy.Baseline.DeltaBudget, 0))})
		return nil
	})
	return v, p, err
}

// expireDueTx appends an EXPIRE entry for every ACTIVE version of ref whose
// TTL has passed at now. The store turns each into a DEL of the memoryRef's
// op log, so the fold of the log equals `memgov snapshot export` (spec
// §3.2.6.2: removal is an appended DEL). It returns how many expired.
func (svc *Service) expireDueTx(ctx context.Context, tx memgov.Tx, ref string, now time.Time) (int, error) {
	due, err := tx.DueExpiries(ctx, ref, now, 0)
	if err != nil {
		return 0, err
	}
	for _, v := range due {
		entry := &oplog.Entry{Time: now, Op: oplog.Expire, MemoryRef: v.MemoryRef, ItemID: v.ItemID, VersionID: v.ID, PrevVersionID: v.Prev, Actor: SystemActor}
		if err := oplog.AppendData(ctx, tx, entry, "ttl expired", oplog.ExpireData{GC: oplog.GCModeTTL}); err != nil {
			return 0, err
		}
	}
	return len(due), nil
}

// SystemActor is the actor of the entries memgov appends on its own, such as
// the expiry of a version whose TTL passed.
const SystemActor = "memgov"

// ExpireDue appends the EXPIRE entries of ref's versions whose TTL has passed
// (see expireDueTx); reads of the memory map and its op log call it first, so
// they never show a map the log does not fold to. It writes only when
// something is due.
func (svc *Service) ExpireDue(ctx context.Context, ref string) (int, error) {
	now := svc.now()
	var due bool
	if err := svc.store.View(ctx, func(tx memgov.ReadTx) error {
		vs, err := tx.DueExpiries(ctx, ref, now, 1)
		due = len(vs) > 0
		return err
	}); err != nil || !due {
		return 0, err
	}
	var n int
	err := svc.store.Update(ctx, func(tx memgov.Tx) (err error) {
		n, err = svc.expireDueTx(ctx, tx, ref, now)
		return err
	})
	return n, err
}
