package main

import (
	"context"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/store/postgres"
)

// openPostgres opens the PostgreSQL database at url.
func openPostgres(ctx context.Context, url string, o storeOptions) (memgov.Store, error) {
	return postgres.Open(ctx, url, postgres.Options{Key: o.Key, Create: o.Create})
}
