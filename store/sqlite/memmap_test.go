package sqlite_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/store/sqlite"
)

// TestFoldMapEqualsNaiveFold checks FoldMap at every size of an op log of
// inserts, updates, retractions and re-inserts against a left fold computed
// here from the op log, by both of its strategies, and the fold of the whole
// log against the materialised map.
func TestFoldMapEqualsNaiveFold(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "fold.db"), sqlite.Options{Key: testKey, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	const ref = "acme/fold"
	rng := rand.New(rand.NewPCG(1, 2))
	heads := map[string][2]string{} // key -> item, ACTIVE version ("" when retracted)
	for i := 0; i < 300; i++ {
		key := fmt.Sprintf("k%02d", rng.IntN(40))
		body, _ := json.Marshal(map[string]string{"text": fmt.Sprintf("v%d", i)})
		h, ok := heads[key]
		err := s.Update(ctx, func(tx memgov.Tx) error {
			entry := &oplog.Entry{Time: now, MemoryRef: ref, Actor: "bot"}
			p := oplog.Payload{Key: key, Layer: string(memgov.Semantic), Content: body, ContentHash: oplog.HashPayload(body)}
			switch {
			case ok && h[1] != "" && rng.IntN(3) == 0:
				entry.Op, entry.ItemID, entry.VersionID = oplog.Retract, h[0], h[1]
				p = oplog.Payload{Reason: "retract"}
				heads[key] = [2]string{h[0], ""}
			case ok:
				entry.Op, entry.ItemID, entry.VersionID, entry.PrevVersionID = oplog.Update, h[0], oplog.NewID(), h[1]
				heads[key] = [2]string{h[0], entry.VersionID}
			default:
				entry.Op, entry.ItemID, entry.VersionID = oplog.Insert, oplog.NewID(), oplog.NewID()
				heads[key] = [2]string{entry.ItemID, entry.VersionID}
			}
			if err := entry.Seal(p); err != nil {
				return err
			}
			return tx.Append(ctx, entry)
		})
		if err != nil {
			t.Fatalf("op %d: %v", i, err)
		}
	}
	err = s.View(ctx, func(r memgov.ReadTx) error {
		head, err := r.MemHead(ctx, ref)
		if err != nil {
			return err
		}
		var ops []memgov.MemOp
		if err := r.MemOps(ctx, ref, 0, head.TreeSize, func(o memgov.MemOp) error {
			o.Value = bytes.Clone(o.Value)
			ops = append(ops, o)
			return nil
		}); err != nil {
			return err
		}
		if len(ops) < 250 {
			t.Fatalf("only %d ops", len(ops))
		}
		dump := func(scan func(func(memgov.MapRow) error) error) string {
			var b bytes.Buffer
			if err := scan(func(m memgov.MapRow) error {
				fmt.Fprintf(&b, "%s=%s;", m.Key, m.Value)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			return b.String()
		}
		for _, limit := range []uint64{1 << 20, 0} {
			restore := sqlite.SetFoldUndoLimit(limit)
			for size := uint64(0); size <= head.TreeSize; size++ {
				m := map[string][]byte{}
				for _, o := range ops[:size] {
					if o.Op == merkle.OpPut {
						m[o.Key] = o.Value
					} else {
						delete(m, o.Key)
					}
				}
				keys := make([]string, 0, len(m))
				for k := range m {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				var want bytes.Buffer
				for _, k := range keys {
					fmt.Fprintf(&want, "%s=%s;", k, m[k])
				}
				got := dump(func(fn func(memgov.MapRow) error) error { return r.FoldMap(ctx, ref, size, now, fn) })
				if got != want.String() {
					t.Fatalf("limit %d size %d:\n got %s\nwant %s", limit, size, got, want.String())
				}
			}
			restore()
		}
		whole := dump(func(fn func(memgov.MapRow) error) error { return r.FoldMap(ctx, ref, head.TreeSize, now, fn) })
		if mat := dump(func(fn func(memgov.MapRow) error) error { return r.MemoryMap(ctx, ref, now, fn) }); whole != mat {
			t.Fatalf("fold %s\nmaterialised %s", whole, mat)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := s.Rebuild(ctx)
	if err != nil || len(rep.Differences) != 0 || rep.Tables["mem_map"] == 0 {
		t.Fatalf("rebuild %+v %v", rep, err)
	}
}
