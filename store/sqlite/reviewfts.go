package sqlite

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// The review queue's free-text filter is served by review_fts (migration
// 0030): a trigram index over each review's text, kept by triggers on the
// reviews and versions tables in the transaction that writes them, so a
// filter reads the reviews whose text holds every word instead of every
// open review.

// reviewTextMatch is the condition (and its arguments) that keeps the reviews
// whose text holds every word of text, ignoring case; "" when text has no
// word. Words of three characters or more are matched through the trigram
// index; shorter ones, which a trigram cannot hold, by LIKE on the rows the
// longer words selected (or on every row when there are none).
func reviewTextMatch(text string) (string, []any) {
	words := strings.Fields(strings.ToLower(text))
	if len(words) == 0 {
		return "", nil
	}
	var (
		match []string
		conds []string
		args  []any
	)
	for _, w := range words {
		if utf8.RuneCountInString(w) >= 3 {
			match = append(match, `"`+strings.ReplaceAll(w, `"`, `""`)+`"`)
			continue
		}
		conds = append(conds, `body LIKE ? ESCAPE '\'`)
		args = append(args, "%"+likeEscaper.Replace(w)+"%")
	}
	if len(match) > 0 {
		conds = append([]string{`review_fts MATCH ?`}, conds...)
		args = append([]any{strings.Join(match, " AND ")}, args...)
	}
	return `created_lsn IN (SELECT rowid FROM review_fts WHERE ` + strings.Join(conds, " AND ") + `)`, args
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

// eraseReviewText merges the review index after an erasure: the triggers
// rewrote the erased reviews' rows, and merging leaves no term of the erased
// text in an older segment of the index.
func eraseReviewText(ctx context.Context, q querier, e *oplog.Entry) error {
	rec, err := oplog.DecodeData[oplog.ErasureData](e)
	if err != nil {
		return err
	}
	if len(rec.Items) == 0 {
		return nil
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO review_fts (review_fts) VALUES ('optimize')`); err != nil {
		return wrapApply(e, err)
	}
	return nil
}
