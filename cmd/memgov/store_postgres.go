package main

import (
	"context"
	"errors"

	"github.com/memgov/memgov"
)

// openPostgres opens the PostgreSQL database at url.
func openPostgres(ctx context.Context, url string, o storeOptions) (memgov.Store, error) {
	return nil, errors.New("this memgov has no PostgreSQL store yet: pass a SQLite file to --db")
}
