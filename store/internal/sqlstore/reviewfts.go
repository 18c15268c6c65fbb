package sqlstore

import (
	"context"
	"fmt"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// EscapeLike escapes s for LIKE ... ESCAPE '\'.
func EscapeLike(s string) string { return likeEscaper.Replace(s) }

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// reviewOrder is the ORDER BY of a review query's order; each is served by
// an index over the open reviews (migrations 0011 and 0030).
func reviewOrder(o string) (string, error) {
	switch o {
	case memgov.ReviewOrderRisk:
		return `tier DESC, risk DESC, created_at, id`, nil
	case memgov.ReviewOrderAge:
		return `created_at, tier DESC, risk DESC, id`, nil
	case memgov.ReviewOrderSLA:
		return `due_at, tier DESC, risk DESC, created_at, id`, nil
	}
	return "", fmt.Errorf("%w: review order %q: risk, age or sla", memgov.ErrInvalid, o)
}

// eraseReviewText merges the review index after an erasure when the dialect
// says how: the triggers rewrote the erased reviews' rows, and merging leaves
// no term of the erased text in an older segment of the index.
func eraseReviewText(ctx context.Context, q querier, e *oplog.Entry) error {
	s := q.dialect().AfterReviewErase
	if s == "" {
		return nil
	}
	rec, err := oplog.DecodeData[oplog.ErasureData](e)
	if err != nil {
		return err
	}
	if len(rec.Items) == 0 {
		return nil
	}
	if _, err := q.ExecContext(ctx, s); err != nil {
		return wrapApply(e, err)
	}
	return nil
}
