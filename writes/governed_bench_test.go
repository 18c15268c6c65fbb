package writes_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/store/sqlite"
)

// BenchmarkGovernedWriteAtScale measures what `memgov bench verify` calls one
// governed write (DriftGate, commit, PUT op, checkpoint advance) on a copy of
// a database that bench seeded: MEMGOV_BENCH_DB names its bench.db (run
// `memgov bench verify --items 100000 --dir DIR` once). The baseline is
// re-approved outside the timer before the delta budget runs out.
func BenchmarkGovernedWriteAtScale(b *testing.B) {
	src := os.Getenv("MEMGOV_BENCH_DB")
	if src == "" {
		b.Skip("set MEMGOV_BENCH_DB to a bench.db seeded by memgov bench verify --dir")
	}
	path := filepath.Join(b.TempDir(), "bench.db")
	if err := copyFile(src, path); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	key := []byte("memgov-bench-key-0123456789abcdef")
	s, err := sqlite.Open(ctx, path, sqlite.Options{Key: key})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	e := engine.New(s, key)
	const ref = "bench/agent"
	approve := func() {
		if _, err := e.Baselines().ApproveBaseline(ctx, memgov.ApproveRequest{MemoryRef: ref, By: "bench-operator", MemoryType: memgov.MemoryPersistent,
			TTLSeconds: 86400, DriftPolicy: policy.DenyOnDrift, Level: 2}); err != nil {
			b.Fatal(err)
		}
	}
	approve()
	budget := e.Policy().Baseline.DeltaBudget
	conf := 0.9
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i > 0 && i%(budget-1) == 0 {
			b.StopTimer()
			approve()
			b.StartTimer()
		}
		content, _ := json.Marshal(map[string]string{"text": fmt.Sprintf("governed change %d", i)})
		err := s.Update(ctx, func(tx memgov.Tx) error {
			g, err := e.DriftGate(ctx, tx, ref)
			if err != nil {
				return err
			}
			if g.Deny {
				return fmt.Errorf("drift gate denied: %+v", g)
			}
			entry := &oplog.Entry{Time: e.Now(), Op: oplog.Insert, MemoryRef: ref, ItemID: oplog.NewID(), VersionID: oplog.NewID(), Actor: "bench-agent"}
			if err := entry.Seal(oplog.Payload{Key: fmt.Sprintf("gov-%08d", i), Layer: string(memgov.Semantic), Content: content,
				ContentHash: oplog.HashPayload(content), Confidence: &conf}); err != nil {
				return err
			}
			return tx.Append(ctx, entry)
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// BenchmarkSnapshotHashAtScale measures the full re-hash of the memoryRef of
// the database MEMGOV_BENCH_DB names (see BenchmarkGovernedWriteAtScale).
func BenchmarkSnapshotHashAtScale(b *testing.B) {
	src := os.Getenv("MEMGOV_BENCH_DB")
	if src == "" {
		b.Skip("set MEMGOV_BENCH_DB to a bench.db seeded by memgov bench verify --dir")
	}
	ctx := context.Background()
	key := []byte("memgov-bench-key-0123456789abcdef")
	s, err := sqlite.Open(ctx, src, sqlite.Options{Key: key})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	e := engine.New(s, key)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		info, err := e.Baselines().SnapshotHash(ctx, "bench/agent", "")
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(info.Bytes)
	}
}
