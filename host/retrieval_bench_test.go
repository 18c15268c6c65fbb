package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/internal/enginetest"
	"github.com/memgov/memgov/store/sqlite"
)

// BenchmarkListAccessRecording measures what recording a read costs: `list`
// of a memoryRef of 10,000 entries with and without its access recording
// (n_access of every entry and one retrieval, in one transaction). It reports
// the recording's share of the list time as record_%; the target is < 10.
func BenchmarkListAccessRecording(b *testing.B) {
	const n = 10_000
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "bench.db"), sqlite.Options{Key: enginetest.Key, Create: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	for done := 0; done < n; {
		err := s.Update(ctx, func(tx memgov.Tx) error {
			for j := 0; j < 2000 && done < n; j, done = j+1, done+1 {
				body, _ := json.Marshal(map[string]string{"text": fmt.Sprintf("Customer %d prefers email follow-up after 6pm on weekdays.", done)})
				e := &oplog.Entry{Time: now, Op: oplog.Insert, MemoryRef: "acme/bot", ItemID: oplog.NewID(), VersionID: oplog.NewID(), Actor: "bot"}
				conf := 0.9
				if err := e.Seal(oplog.Payload{Key: fmt.Sprintf("customer-%05d/channel", done), Layer: string(memgov.Episodic), Content: body,
					ContentHash: oplog.HashPayload(body), Confidence: &conf}); err != nil {
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
	e := engine.New(s, enginetest.Key, engine.WithClock(func() time.Time { return now.Add(time.Hour) }))
	a := e.Host().Adapter(memgov.Owner)
	// Wall time is noisy on a shared machine; the process's CPU time (Go and
	// SQLite run in-process) is reported beside it.
	var without, with, record, cpuWithout, cpuWith, cpuRecord time.Duration
	b.Run("without_recording", func(b *testing.B) {
		start, cpu := time.Now(), cpuTime()
		for i := 0; i < b.N; i++ {
			vs, err := a.ListUnrecorded(ctx, "acme/bot", host.ListOptions{})
			if err != nil || len(vs) != n {
				b.Fatalf("%d entries, %v", len(vs), err)
			}
		}
		without, cpuWithout = time.Since(start)/time.Duration(b.N), (cpuTime()-cpu)/time.Duration(b.N)
		b.ReportMetric(float64(cpuWithout.Microseconds())/1000, "cpu-ms/op")
	})
	b.Run("with_recording", func(b *testing.B) {
		start, cpu := time.Now(), cpuTime()
		for i := 0; i < b.N; i++ {
			r, err := a.ListRead(ctx, "acme/bot", host.ListOptions{})
			if err != nil || len(r.Versions) != n || r.ID == "" {
				b.Fatalf("%d entries, id %q, %v", len(r.Versions), r.ID, err)
			}
		}
		with, cpuWith = time.Since(start)/time.Duration(b.N), (cpuTime()-cpu)/time.Duration(b.N)
		b.ReportMetric(float64(cpuWith.Microseconds())/1000, "cpu-ms/op")
	})
	b.Run("recording_only", func(b *testing.B) {
		vs, err := a.ListUnrecorded(ctx, "acme/bot", host.ListOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		start, cpu := time.Now(), cpuTime()
		for i := 0; i < b.N; i++ {
			if r, err := a.Retrieve(ctx, "acme/bot", vs); err != nil || r.ID == "" {
				b.Fatalf("id %q, %v", r.ID, err)
			}
		}
		record, cpuRecord = time.Since(start)/time.Duration(b.N), (cpuTime()-cpu)/time.Duration(b.N)
		b.ReportMetric(float64(cpuRecord.Microseconds())/1000, "cpu-ms/op")
		if without > 0 {
			b.ReportMetric(100*float64(record)/float64(without), "record_%_of_list")
		}
	})
	if without > 0 && cpuWithout > 0 {
		b.Logf("list of %d entries: %v (CPU %v) without recording, %v (CPU %v) with; the recording alone takes %v (CPU %v): %.1f%% of the list's time (%.1f%% of its CPU time)",
			n, without, cpuWithout, with, cpuWith, record, cpuRecord, 100*float64(record)/float64(without), 100*float64(cpuRecord)/float64(cpuWithout))
	}
	// The recorded reads fold into the per-item tables GC and the metrics read.
	if _, err := e.Audit().Metrics(ctx); err != nil {
		b.Fatal(err)
	}
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
