package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// The review queue's free-text filter reads review_text (migration 0003):
// one row per review holding its text, kept by triggers on the reviews and
// versions tables in the transaction that writes them.

// reviewTextMatch is the condition (and its arguments) that keeps the reviews
// whose text holds every word of text as a part of a word, ignoring case; ""
// when text has no word.
func reviewTextMatch(text string) (string, []any) {
	words := strings.Fields(strings.ToLower(text))
	if len(words) == 0 {
		return "", nil
	}
	var (
		conds []string
		args  []any
	)
	for _, w := range words {
		conds = append(conds, `lower(body) LIKE ? ESCAPE '\'`)
		args = append(args, "%"+likeEscaper.Replace(w)+"%")
	}
	return `created_lsn IN (SELECT lsn FROM review_text WHERE ` + strings.Join(conds, " AND ") + `)`, args
}

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

// eraseReviewText has nothing to do on PostgreSQL: the triggers rewrote the
// erased reviews' rows, and Compact rewrites the table.
func eraseReviewText(ctx context.Context, q querier, e *oplog.Entry) error { return nil }
