package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/store/postgres"
	"github.com/memgov/memgov/store/storetest"
)

var testKey = []byte("memgov-test-key-0123456789abcdef")

func open(t testing.TB) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), newURL(t, true), postgres.Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	needServer(t)
	storetest.Run(t, storetest.Factory{
		Open: func(t testing.TB) (memgov.Store, []byte) { return open(t), testKey },
		Engine: func(s memgov.Store, key []byte, now func() time.Time, pol []byte) (storetest.Engine, error) {
			opts := []engine.Option{engine.WithClock(now)}
			if len(pol) > 0 {
				p, err := policy.Parse(pol)
				if err != nil {
					return nil, err
				}
				opts = append(opts, engine.WithPolicy(p))
			}
			return engine.New(s, key, opts...), nil
		},
	})
}
