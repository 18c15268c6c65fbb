package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/store/internal/sqlstore"
)

// A writer killed in the middle of a transaction (its server session
// terminated, as when its process dies) leaves nothing of it: the entry it
// appended is not on the log, and a writer of another store that was waiting
// for the append lock appends the next LSN.
func TestKilledWriterLeavesNothing(t *testing.T) {
	ctx := context.Background()
	u := newURL(t, true)
	a, b := openTwo(t, u)
	if _, err := engineOver(b).AddPrincipal(ctx, memgov.Principal{ID: curator, Role: memgov.Curator, Tenant: "acme"}, "admin"); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, u)

	appended := make(chan struct{})
	kill := make(chan struct{})
	errA := make(chan error, 1)
	go func() {
		errA <- a.Update(ctx, func(tx memgov.Tx) error {
			e := &oplog.Entry{Time: time.Now(), Op: oplog.Annotate, ItemID: "none", Actor: curator}
			if err := e.Seal(oplog.Payload{Reason: "never committed"}); err != nil {
				return err
			}
			if err := tx.Append(ctx, e); err != nil {
				return err
			}
			var pid int
			if err := tx.(*sqlstore.Tx).Querier().QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
				return err
			}
			close(appended)
			<-kill
			if _, err := db.Exec(`SELECT pg_terminate_backend($1)`, pid); err != nil {
				t.Error(err)
			}
			return nil
		})
	}()
	<-appended
	// b waits for the append lock a holds.
	errB := make(chan error, 1)
	go func() {
		_, err := engineOver(b).AddPrincipal(ctx, memgov.Principal{ID: "ops-other", Role: memgov.Curator, Tenant: "acme"}, "admin")
		errB <- err
	}()
	// Until the server says b's session waits for the lock (each look is a
	// query; a bounded number of them).
	waiting := 0
	for i := 0; waiting == 0 && i < 100000; i++ {
		if err := db.QueryRow(`SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
	}
	if waiting == 0 {
		t.Fatal("the second writer never waited for the append lock")
	}
	close(kill)
	if err := <-errA; err == nil {
		t.Fatal("the killed writer's transaction committed")
	}
	if err := <-errB; err != nil {
		t.Fatalf("the waiting writer: %v", err)
	}
	log := entries(t, b)
	if len(log) != 2 || log[1].LSN != 2 || log[1].Op != oplog.Principal {
		for _, e := range log {
			t.Logf("LSN %d %s", e.LSN, e.Op)
		}
		t.Fatalf("the log holds %d entries, want the two principals at LSN 1 and 2", len(log))
	}
	rep, err := b.VerifyReplay(ctx)
	if err != nil || !rep.OK {
		t.Errorf("VerifyReplay = %+v, %v", rep, err)
	}
}
