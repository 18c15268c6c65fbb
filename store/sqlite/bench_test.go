package sqlite_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/store/sqlite"
)

// BenchmarkAppend measures single-row append transactions: one log entry, its
// payload and its derived rows, committed as one BEGIN IMMEDIATE transaction.
func BenchmarkAppend(b *testing.B) {
	s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"), sqlite.Options{Key: testKey, Create: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	e := engine.New(s, testKey)
	ctx := context.Background()
	body, _ := json.Marshal(map[string]string{"text": "Customer 42 prefers email after 6pm."})
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: "acme/bot", Key: fmt.Sprintf("k%d", i), Layer: memgov.Episodic,
			Content: body, Actor: "bot"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "tx/s")
}

// BenchmarkVerify100k measures `memgov audit verify` over 100,000 entries.
func BenchmarkVerify100k(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a 100,000-entry log")
	}
	const n = 100_000
	s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"), sqlite.Options{Key: testKey, Create: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	for done := 0; done < n; {
		err := s.Update(ctx, func(tx memgov.Tx) error {
			for j := 0; j < 2000 && done < n; j, done = j+1, done+1 {
				body, _ := json.Marshal(map[string]string{"text": fmt.Sprintf("fact number %d about the world", done)})
				e := &oplog.Entry{Time: now, Op: oplog.Insert, MemoryRef: "acme/bot", ItemID: oplog.NewID(), VersionID: oplog.NewID(), Actor: "bot"}
				if err := e.Seal(oplog.Payload{Key: fmt.Sprintf("k%06d", done), Layer: string(memgov.Episodic), Content: body, ContentHash: oplog.HashPayload(body)}); err != nil {
					return err
				}
				if err := tx.Append(ctx, e); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	// replay: the log check and a replay of every served table, compared row
	// by row; unchanged: the log check and the served tables' digest against
	// the one the last matching replay recorded.
	b.Run("replay", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			rep, err := s.VerifyReplay(ctx)
			if err != nil || !rep.OK || rep.TreeSize != n || rep.Served != "replay" {
				b.Fatalf("verify = %+v, %v", rep, err)
			}
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			rep, err := s.Verify(ctx)
			if err != nil || !rep.OK || rep.TreeSize != n || rep.Served != "digest" {
				b.Fatalf("verify = %+v, %v", rep, err)
			}
		}
	})
}
