package writes_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/internal/enginetest"
	"github.com/memgov/memgov/writes"
)

// Task outcomes measure MCI and MIER (spec §12.12.5); the health score says
// which metrics are measured and what would measure the others.
func TestTaskOutcomesMeasureMCIAndMIER(t *testing.T) {
	e, _ := enginetest.Lifecycle(t, "")
	ctx := context.Background()
	enginetest.PutText(t, e, "acme/bot", "tz", memgov.Episodic, "Customer 7 is in the Europe/Berlin time zone.", nil)
	enginetest.PutText(t, e, "acme/bot", "channel", memgov.Episodic, "Customer 7 prefers email follow-up.", nil)
	m, err := e.Audit().Metrics(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"correctness_impact", "induced_errors", "retrieval_precision"} {
		if !slices.Contains(m.Unmeasured, name) || m.UnmeasuredWhy[name] == "" || slices.Contains(m.Measured, name) {
			t.Fatalf("%s before any feedback: measured %v, unmeasured %v %v", name, m.Measured, m.Unmeasured, m.UnmeasuredWhy)
		}
	}
	if m.UnmeasuredNext["correctness_impact"] != memgov.NextRecordOutcomes || m.CorrectnessImpact != nil || m.InducedErrors != nil {
		t.Fatalf("before any outcome: %+v", m)
	}
	a := e.Host().Adapter(memgov.As("bot"))
	search := func() string {
		t.Helper()
		_, id, err := a.SearchRead(ctx, host.SearchQuery{MemoryRef: "acme/bot", Query: "customer 7"})
		if err != nil || id == "" {
			t.Fatalf("search: %q %v", id, err)
		}
		return id
	}
	// Four tasks with memory: three succeed, one fails because of memory.
	for i, f := range []writes.TaskFeedback{
		{Outcome: writes.OutcomeSuccess, Used: []string{"tz"}, By: "bot"},
		{Outcome: writes.OutcomeSuccess},
		{Outcome: writes.OutcomeSuccess, Note: "answered from memory"},
		{Outcome: writes.OutcomeFailure, MemoryCaused: true, Used: []string{"channel"}, Note: "the channel was stale"},
	} {
		f.RetrievalID = search()
		r, err := e.Writes().ReportOutcome(ctx, f)
		if err != nil || r.ID != f.RetrievalID || r.Used != len(f.Used) {
			t.Fatalf("outcome %d: %+v %v", i, r, err)
		}
	}
	m, _ = e.Audit().Metrics(ctx)
	if m.InducedErrors == nil || *m.InducedErrors != 0.25 || m.CorrectnessImpact != nil || !slices.Contains(m.Measured, "induced_errors") ||
		!slices.Contains(m.Unmeasured, "correctness_impact") || m.TasksWithMemory != 4 {
		t.Fatalf("with memory only: MIER %v, MCI %v, measured %v", m.InducedErrors, m.CorrectnessImpact, m.Measured)
	}
	// Two tasks with memory withheld: one succeeds.
	for _, o := range []string{writes.OutcomeSuccess, writes.OutcomeFailure} {
		if _, err := e.Writes().ReportOutcome(ctx, writes.TaskFeedback{Ablated: true, Outcome: o}); err != nil {
			t.Fatal(err)
		}
	}
	m, _ = e.Audit().Metrics(ctx)
	// MCI = 3/4 - 1/2; MIER = 1 failure caused by memory / 6 tasks.
	if m.CorrectnessImpact == nil || *m.CorrectnessImpact != 0.25 || m.InducedErrors == nil || *m.InducedErrors != 0.1667 ||
		!slices.Contains(m.Measured, "correctness_impact") || slices.Contains(m.Unmeasured, "correctness_impact") || m.TasksWithheld != 2 {
		t.Fatalf("with both arms: MCI %v, MIER %v, measured %v, unmeasured %v", m.CorrectnessImpact, m.InducedErrors, m.Measured, m.Unmeasured)
	}
	// Reporting again for a retrieval replaces its outcome.
	rid := search()
	if _, err := e.Writes().ReportOutcome(ctx, writes.TaskFeedback{RetrievalID: rid, Outcome: writes.OutcomeFailure}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Writes().ReportOutcome(ctx, writes.TaskFeedback{RetrievalID: rid, Outcome: writes.OutcomeSuccess}); err != nil {
		t.Fatal(err)
	}
	if m, _ = e.Audit().Metrics(ctx); m.TasksWithMemory != 5 {
		t.Fatalf("a replaced outcome counted twice: %d tasks", m.TasksWithMemory)
	}
	// Bad reports are refused and record nothing.
	for _, f := range []writes.TaskFeedback{
		{RetrievalID: rid, Outcome: "great"},
		{RetrievalID: rid, Ablated: true, Outcome: writes.OutcomeSuccess},
		{Outcome: writes.OutcomeSuccess},
		{RetrievalID: rid, Outcome: writes.OutcomeSuccess, MemoryCaused: true},
		{Ablated: true, Outcome: writes.OutcomeFailure, MemoryCaused: true},
		{RetrievalID: rid, Outcome: writes.OutcomeSuccess, Note: strings.Repeat("x", writes.MaxOutcomeNote+1)},
	} {
		if _, err := e.Writes().ReportOutcome(ctx, f); !errors.Is(err, memgov.ErrInvalid) {
			t.Errorf("%+v: %v, want ErrInvalid", f, err)
		}
	}
	if _, err := e.Writes().ReportOutcome(ctx, writes.TaskFeedback{RetrievalID: "no-such", Outcome: writes.OutcomeSuccess}); !errors.Is(err, memgov.ErrNotFound) {
		t.Errorf("unknown retrieval: %v", err)
	}
	if _, err := e.Writes().ReportOutcome(ctx, writes.TaskFeedback{RetrievalID: rid, Outcome: writes.OutcomeSuccess, By: "nobody"}); err == nil {
		t.Error("an unknown principal reported an outcome")
	}
	if m2, _ := e.Audit().Metrics(ctx); m2.TasksWithMemory != m.TasksWithMemory || m2.TasksWithheld != m.TasksWithheld {
		t.Errorf("refused reports were recorded: %+v", m2)
	}
}
