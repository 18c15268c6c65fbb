package sqlite_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/store/sqlite"
)

// Reads keep their statements prepared on the read connections: more
// readers than connections at once, reads between writes and after a
// compaction (which rewrites the file) all see what is committed, and the
// statements kept do not grow with the number of reads.
func TestReadsKeepStatementsPrepared(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, t.TempDir()+"/memgov.db", sqlite.Options{Key: testKey, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e := engine.New(s, testKey)
	put := func(key, text string) {
		t.Helper()
		body, _ := json.Marshal(map[string]string{"text": text})
		if _, err := e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: "acme/bot", Key: key, Layer: memgov.Semantic, Content: body, Actor: "bot"}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 8 {
		put(fmt.Sprintf("k%d", i), fmt.Sprintf("fact %d, first", i))
	}
	// heads reads every key's head version and its text through a view.
	heads := func() (map[string]string, error) {
		out := map[string]string{}
		err := s.View(ctx, func(tx memgov.ReadTx) error {
			for i := range 8 {
				key := fmt.Sprintf("k%d", i)
				it, err := tx.ItemByKey(ctx, "acme/bot", key)
				if err != nil {
					return fmt.Errorf("%s: %w", key, err)
				}
				v, err := tx.Version(ctx, it.Head)
				if err != nil {
					return fmt.Errorf("%s head %s: %w", key, it.Head, err)
				}
				out[key] = string(v.Content)
			}
			return nil
		})
		return out, err
	}
	want := func(round string) map[string]string {
		m := map[string]string{}
		for i := range 8 {
			b, _ := json.Marshal(map[string]string{"text": fmt.Sprintf("fact %d, %s", i, round)})
			m[fmt.Sprintf("k%d", i)] = string(b)
		}
		return m
	}
	check := func(round string) {
		t.Helper()
		// Twice the read connections, at once.
		const readers = 16
		errs := make(chan error, readers)
		var wg sync.WaitGroup
		for range readers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 5 {
					got, err := heads()
					if err != nil {
						errs <- err
						return
					}
					for k, w := range want(round) {
						if got[k] != w {
							errs <- fmt.Errorf("%s: read %s, want %s", k, got[k], w)
							return
						}
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Errorf("after the %s writes: %v", round, err)
		}
	}
	check("first")
	kept := s.ReadStatements()
	if kept == 0 {
		t.Fatal("no statement is kept prepared for reads after 80 views")
	}
	for i := range 8 {
		put(fmt.Sprintf("k%d", i), fmt.Sprintf("fact %d, second", i))
	}
	check("second")
	if err := s.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	check("second")
	for i := range 8 {
		put(fmt.Sprintf("k%d", i), fmt.Sprintf("fact %d, third", i))
	}
	check("third")
	if got := s.ReadStatements(); got != kept {
		t.Errorf("the same reads kept %d statements, then %d: statements are prepared again, not reused", kept, got)
	}
}
