package postgres_test

import (
	"context"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/internal/storeconf"
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
		Open:   func(t testing.TB) (memgov.Store, []byte) { return open(t), testKey },
		Engine: storeconf.Engine,
	})
}
