package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/internal/storeconf"
	"github.com/memgov/memgov/store/sqlite"
	"github.com/memgov/memgov/store/storetest"
)

var testKey = []byte("memgov-test-key-0123456789abcdef")

func open(t testing.TB) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "memgov.db"), sqlite.Options{Key: testKey, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, storetest.Factory{
		Open:   func(t testing.TB) (memgov.Store, []byte) { return open(t), testKey },
		Engine: storeconf.Engine,
	})
}
