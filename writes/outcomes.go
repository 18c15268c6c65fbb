package writes

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// Task outcomes make the downstream-impact metrics of spec §12.12.5
// measurable. A host reports, for the task a retrieval served, whether it
// succeeded and, for a failure, whether its root cause was memory; and it
// reports tasks it ran with memory withheld (the ablation arm). Then
//
//	MCI  = P(success | memory retrieved) - P(success | memory withheld)
//	MIER = failures caused by memory / tasks reported
//
// over the metrics window. Outcomes are telemetry, not log entries.

// Task outcomes.
const (
	OutcomeSuccess = "success"
	OutcomeFailure = "failure"
)

// MaxOutcomeNote bounds the note of a task outcome, in characters.
const MaxOutcomeNote = 2000

// TaskFeedback is one reported task outcome.
type TaskFeedback struct {
	// RetrievalID is the retrieval that served the task; empty when Ablated.
	RetrievalID string
	// Ablated reports a task run with memory withheld.
	Ablated bool
	// Outcome is OutcomeSuccess or OutcomeFailure.
	Outcome string
	// MemoryCaused marks a failure whose root cause was retrieved memory.
	MemoryCaused bool
	// Used names the entries of the retrieval the task used (keys or item
	// ids): retrieval precision, as Feedback records it.
	Used []string
	// Note is free text, redacted (SR-1) and kept with the outcome.
	Note string
	// By is the reporting principal; "" for the database's local owner.
	By string
}

// FeedbackResult is what ReportOutcome recorded.
type FeedbackResult struct {
	ID           string    `json:"id"`
	RetrievalID  string    `json:"retrieval_id,omitempty"`
	Ablated      bool      `json:"ablated"`
	Outcome      string    `json:"outcome"`
	MemoryCaused bool      `json:"memory_caused"`
	Used         int       `json:"used"` // entries of Used that were in the retrieval
	At           time.Time `json:"at"`
}

// ReportOutcome records a task outcome (and the entries it used, if any).
// Reporting again for the same retrieval replaces the earlier outcome.
func (s *Service) ReportOutcome(ctx context.Context, f TaskFeedback) (FeedbackResult, error) {
	res := FeedbackResult{RetrievalID: f.RetrievalID, Ablated: f.Ablated, Outcome: f.Outcome, MemoryCaused: f.MemoryCaused, At: s.now()}
	switch {
	case f.Outcome != OutcomeSuccess && f.Outcome != OutcomeFailure:
		return res, fmt.Errorf("%w: the outcome is %s or %s", memgov.ErrInvalid, OutcomeSuccess, OutcomeFailure)
	case f.Ablated && f.RetrievalID != "":
		return res, fmt.Errorf("%w: an ablated task ran without memory: it has no retrieval id", memgov.ErrInvalid)
	case !f.Ablated && strings.TrimSpace(f.RetrievalID) == "":
		return res, fmt.Errorf("%w: name the retrieval that served the task, or report a task run without memory (ablated)", memgov.ErrInvalid)
	case f.MemoryCaused && f.Outcome != OutcomeFailure:
		return res, fmt.Errorf("%w: only a failure can be caused by memory", memgov.ErrInvalid)
	case f.MemoryCaused && f.Ablated:
		return res, fmt.Errorf("%w: a task run without memory cannot fail because of memory", memgov.ErrInvalid)
	case f.Ablated && len(f.Used) > 0:
		return res, fmt.Errorf("%w: a task run without memory used no entries", memgov.ErrInvalid)
	case !utf8.ValidString(f.Note) || utf8.RuneCountInString(f.Note) > MaxOutcomeNote:
		return res, fmt.Errorf("%w: the note is at most %d characters of UTF-8", memgov.ErrInvalid, MaxOutcomeNote)
	}
	who := f.By
	if who == "" {
		who = "local"
	}
	row := memgov.TaskOutcomeRow{ID: f.RetrievalID, RetrievalID: f.RetrievalID, At: res.At, Principal: who, Success: f.Outcome == OutcomeSuccess,
		MemoryCaused: f.MemoryCaused, Note: s.redactor("").String(f.Note)}
	if f.Ablated {
		row.ID = oplog.NewID()
	}
	res.ID = row.ID
	err := s.store.Update(ctx, func(tx memgov.Tx) error {
		if f.By != "" {
			if err := requirePrincipal(ctx, tx, f.By); err != nil {
				return err
			}
		}
		if err := tx.RecordTaskOutcome(ctx, row); err != nil {
			return err
		}
		if len(f.Used) > 0 {
			n, err := tx.RecordFeedback(ctx, f.RetrievalID, f.Used, res.At)
			res.Used = n
			return err
		}
		return nil
	})
	return res, err
}
