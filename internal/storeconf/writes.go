package storeconf

import (
	"context"
	"encoding/json"

	"github.com/memgov/memgov"
)

func (c conformance) Write(ctx context.Context, req memgov.WriteRequest) (memgov.WriteResult, error) {
	return c.Writes().Write(ctx, req)
}

func (c conformance) Put(ctx context.Context, r memgov.PutRequest) (memgov.PutResult, error) {
	return c.Writes().Put(ctx, r)
}

func (c conformance) IndexFeatures(content json.RawMessage) (memgov.VersionFeatures, error) {
	return c.Writes().IndexFeatures(content)
}

func (c conformance) JudgeVersion() string { return c.Writes().JudgeVersion() }
