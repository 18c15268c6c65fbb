package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/merkle"
)

// The memory map of a memoryRef is {key: content} over its ACTIVE, unexpired
// versions; versions.content is already each item's RFC 8785 fragment, so the
// snapshot_hash streams the stored bytes into a canon.Hasher without
// re-canonicalising the map (spec §3.2.6.1).

// MemHead is the head of a memoryRef's PUT/DEL operation log.
type MemHead struct {
	MemoryRef   string
	TreeSize    uint64
	Frontier    []byte // merkle.Frontier binary form
	Root        merkle.Hash
	LastVerdict string // code of the last checkpoint advance
	LastDetail  string
}

// MemOp is one spec §3.2.6.2 operation of a memory op log.
type MemOp struct {
	Index uint64
	Key   string
	Op    string // merkle.OpPut or merkle.OpDel
	Value []byte // canonical JSON of a PUT
	Leaf  merkle.Hash
	LSN   int64 // the log entry that made the change
}

// MarshalJSON writes {"index","key","op","value","leaf","lsn"}; a DEL has no value.
func (o MemOp) MarshalJSON() ([]byte, error) {
	v := struct {
		Index uint64          `json:"index"`
		Key   string          `json:"key"`
		Op    string          `json:"op"`
		Value json.RawMessage `json:"value,omitempty"`
		Leaf  string          `json:"leaf"`
		LSN   int64           `json:"lsn"`
	}{o.Index, o.Key, o.Op, o.Value, o.Leaf.Prefixed(), o.LSN}
	return json.Marshal(v)
}

// CheckpointRecord is a stored spec §3.2.6.2 memory checkpoint.
type CheckpointRecord struct {
	merkle.MemoryCheckpoint
	MemoryRef  string
	BaselineID string
	Proof      []merkle.Hash
	LSN        int64
}

// StateCache is the cached snapshot_hash of a memoryRef (see VerifyMemory).
type StateCache struct {
	MemoryRef  string
	Alg        canon.Algorithm
	TreeSize   uint64
	Hash       string
	NextExpiry *time.Time
	Items      int
	Bytes      int64
}

// MapRow is one member of a memory map as a store returns it.
type MapRow struct {
	Key       string
	Value     []byte
	ExpiresAt *time.Time
}

// hashRows hashes a key-ordered stream of map rows. Rows come in SQLite's byte
// order, which equals RFC 8785's UTF-16 order except where a character above
// U+FFFF meets one in U+E000..U+FFFF; on the first out-of-order key the caller
// re-reads the rows into memory, sorts them with canon.SortEntries and hashes
// again. w, if not nil, receives the exact bytes hashed.
func hashRows(alg canon.Algorithm, w io.Writer, scan func(func(MapRow) error) error) (StateCache, error) {
	sc := StateCache{Alg: alg}
	d, err := canon.NewDigest(alg)
	if err != nil {
		return sc, fmt.Errorf("%w: %v", ErrInvalid, err)
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
	err = scan(func(r MapRow) error {
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
		sc = StateCache{Alg: alg}
		var ents []canon.Entry
		exp := map[string]*time.Time{}
		if err := scan(func(r MapRow) error {
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
				return sc, fmt.Errorf("%w: memory map: %v", ErrTampered, err)
			}
			noteExpiry(&sc, exp[en.Key])
			sc.Items++
		}
	} else if err != nil {
		if errors.Is(err, canon.ErrKeyOrder) || errors.Is(err, canon.ErrInvalidEntry) {
			return sc, fmt.Errorf("%w: memory map: %v", ErrTampered, err)
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

func noteExpiry(sc *StateCache, t *time.Time) {
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
func (e *Engine) stateHash(ctx context.Context, br BaselineReader, ref string, now time.Time, alg canon.Algorithm, w io.Writer, materialised bool) (StateCache, error) {
	head, err := br.MemHead(ctx, ref)
	if err != nil {
		return StateCache{}, err
	}
	if !materialised {
		dirty, err := br.Dirty(ctx, ref)
		if err != nil {
			return StateCache{}, err
		}
		materialised = dirty
	}
	scan := func(fn func(MapRow) error) error { return br.FoldMap(ctx, ref, head.TreeSize, now, fn) }
	if materialised {
		scan = func(fn func(MapRow) error) error { return br.MemoryMap(ctx, ref, now, fn) }
	}
	sc, err := hashRows(alg, w, scan)
	if err != nil {
		return sc, err
	}
	sc.MemoryRef, sc.TreeSize = ref, head.TreeSize
	return sc, nil
}

// foldHash hashes the governed map: the fold of the op log's first size operations.
func foldHash(ctx context.Context, br BaselineReader, ref string, size uint64, now time.Time, alg canon.Algorithm) (StateCache, error) {
	sc, err := hashRows(alg, nil, func(fn func(MapRow) error) error { return br.FoldMap(ctx, ref, size, now, fn) })
	sc.MemoryRef, sc.TreeSize = ref, size
	return sc, err
}

// cachedHash returns the cached snapshot hash of ref when it is still valid:
// same op log size, no dirty row, nothing included has expired since.
func cachedHash(ctx context.Context, br BaselineReader, ref string, alg canon.Algorithm, head MemHead, now time.Time) (string, bool, error) {
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
func (e *Engine) governedIntact(ctx context.Context, tx ReadTx, w BaselineWriter, ref string) (bool, string, error) {
	dirty, err := tx.Dirty(ctx, ref)
	if err != nil || !dirty {
		return err == nil, "", err
	}
	now := e.Now()
	head, err := tx.MemHead(ctx, ref)
	if err != nil {
		return false, "", err
	}
	cur, err := e.stateHash(ctx, tx, ref, now, canon.SHA256, nil, true)
	if errors.Is(err, ErrTampered) {
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
func (e *Engine) SnapshotHash(ctx context.Context, ref string, alg canon.Algorithm) (SnapshotInfo, error) {
	return e.ExportSnapshot(ctx, ref, alg, nil)
}

// ExportSnapshot writes the exact canonical map that SnapshotHash hashes to w
// (if not nil) and returns its hash: anyone can recompute the hash from the
// exported bytes with any RFC 8785 library.
func (e *Engine) ExportSnapshot(ctx context.Context, ref string, alg canon.Algorithm, w io.Writer) (SnapshotInfo, error) {
	if alg == "" {
		alg = canon.SHA256
	}
	info := SnapshotInfo{MemoryRef: ref}
	err := e.store.View(ctx, func(tx ReadTx) (err error) {
		if info.LSN, err = tx.LogSize(ctx); err != nil {
			return err
		}
		sc, err := e.stateHash(ctx, tx, ref, e.Now(), alg, w, false)
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
}

// MemoryCheckpoint returns the latest accepted checkpoint of ref's op log.
func (e *Engine) MemoryCheckpoint(ctx context.Context, ref string) (MemoryCheckpointView, error) {
	var v MemoryCheckpointView
	err := e.store.View(ctx, func(tx ReadTx) error {
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
			LastDetail: head.LastDetail, BaselineID: cp.BaselineID}
		return nil
	})
	return v, err
}

// MemoryOps calls fn for every operation of ref's op log, in order.
func (e *Engine) MemoryOps(ctx context.Context, ref string, fn func(MemOp) error) error {
	return e.store.View(ctx, func(tx ReadTx) error {
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
func (e *Engine) ProveMemory(ctx context.Context, ref string, from uint64) (MemoryProof, error) {
	var p MemoryProof
	err := e.store.View(ctx, func(tx ReadTx) error {
		head, err := tx.MemHead(ctx, ref)
		if err != nil {
			return err
		}
		if from > head.TreeSize {
			return fmt.Errorf("%w: size %d is beyond the op log of %s (%d operations)", ErrInvalid, from, ref, head.TreeSize)
		}
		leaves := make([]merkle.Hash, 0, head.TreeSize)
		if err := tx.MemOps(ctx, ref, 0, head.TreeSize, func(o MemOp) error {
			leaves = append(leaves, o.Leaf)
			return nil
		}); err != nil {
			return err
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
		if err := merkle.VerifyConsistency(from, head.TreeSize, old, tree.Root(), proof); err != nil {
			return fmt.Errorf("%w: %v", ErrTampered, err)
		}
		p = MemoryProof{MemoryRef: ref, From: from, To: head.TreeSize, OldRoot: old.Prefixed(), NewRoot: tree.Root().Prefixed(), Proof: []string{}}
		for _, h := range proof {
			p.Proof = append(p.Proof, h.String())
		}
		return nil
	})
	return p, err
}
