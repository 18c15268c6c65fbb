package storetest

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/memgov/memgov"
)

var deadLetterTests = []test{
	{"KeptListedAndRolledBack", testDeadLetters},
}

// Dead letters are kept as given (At to the millisecond), listed by id,
// paged by AfterID, filtered by event type and bounded by Limit; a rolled
// back transaction keeps none.
func testDeadLetters(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	at := fx.c.Now().Add(1500 * time.Microsecond)
	fx.view(func(tx memgov.ReadTx) error {
		ds, err := tx.DeadLetters(fx.ctx, memgov.DeadLetterQuery{})
		if err != nil || len(ds) != 0 {
			t.Errorf("an empty store's dead letters = %v, %v", ds, err)
		}
		return nil
	})
	in := []memgov.DeadLetter{
		{EventID: 7, EventType: "review.created", URL: "https://ops.example/a", Attempts: 6, Error: "receiver answered 503", Body: json.RawMessage(`{"id":7}`), At: at},
		{EventID: 9, EventType: "MEMORY_DRIFT_DETECTED", URL: "https://ops.example/a", Attempts: 6, Error: "dial tcp: refused", Body: json.RawMessage(`{"id":9}`), At: at.Add(time.Second)},
		{EventID: 9, EventType: "MEMORY_DRIFT_DETECTED", URL: "https://ops.example/b", Attempts: 1, Error: "receiver answered 410; not retried", Body: json.RawMessage(`{"id":9}`), At: at.Add(2 * time.Second)},
	}
	var ids []int64
	fx.update(func(tx memgov.Tx) error {
		for _, d := range in {
			id, err := tx.AddDeadLetter(fx.ctx, d)
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	if !(ids[0] < ids[1] && ids[1] < ids[2]) {
		t.Fatalf("dead letter ids = %v, want increasing", ids)
	}
	errRollback := errors.New("roll back")
	if err := fx.s.Update(fx.ctx, func(tx memgov.Tx) error {
		if _, err := tx.AddDeadLetter(fx.ctx, in[0]); err != nil {
			return err
		}
		return errRollback
	}); !errors.Is(err, errRollback) {
		t.Fatalf("rolled back update = %v", err)
	}
	fx.view(func(tx memgov.ReadTx) error {
		all, err := tx.DeadLetters(fx.ctx, memgov.DeadLetterQuery{})
		if err != nil || len(all) != 3 {
			t.Fatalf("dead letters = %v, %v; want the 3 committed", all, err)
		}
		for i, d := range all {
			want := in[i]
			want.ID, want.At = ids[i], want.At.Truncate(time.Millisecond)
			if !d.At.Equal(want.At) || d.At.Location() != time.UTC {
				t.Errorf("dead letter %d at %v, want %v UTC", i, d.At, want.At)
			}
			d.At = want.At
			if !reflect.DeepEqual(d, want) {
				t.Errorf("dead letter %d = %+v, want %+v", i, d, want)
			}
		}
		page, err := tx.DeadLetters(fx.ctx, memgov.DeadLetterQuery{AfterID: ids[0], Limit: 1})
		if err != nil || len(page) != 1 || page[0].ID != ids[1] {
			t.Errorf("after the first, limit 1 = %v, %v", page, err)
		}
		drift, err := tx.DeadLetters(fx.ctx, memgov.DeadLetterQuery{EventType: "MEMORY_DRIFT_DETECTED"})
		if err != nil || len(drift) != 2 || drift[0].ID != ids[1] {
			t.Errorf("by event type = %v, %v", drift, err)
		}
		return nil
	})
}
