package review

import (
	"context"
	"fmt"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/audit"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
)

// LogEvent is one audit-log entry as the Activity screen shows it. Reason and
// Text may be agent-written: sanitise before display.
type LogEvent struct {
	LSN           int64
	Time          time.Time
	Op            oplog.Op
	MemoryRef     string
	ItemID        string
	VersionID     string
	PrevVersionID string
	Actor         string
	Key           string
	Reason        string
	Text          string // content.text of a version-creating entry
	PayloadHash   string
	Leaf          string
	Erased        bool // the payload was erased; identifiers and hashes remain
}

func describe(le oplog.Entry) LogEvent {
	ev := LogEvent{LSN: le.LSN, Time: le.Time, Op: le.Op, MemoryRef: le.MemoryRef, ItemID: le.ItemID,
		VersionID: le.VersionID, PrevVersionID: le.PrevVersionID, Actor: le.Actor,
		PayloadHash: le.PayloadHash, Leaf: fmt.Sprintf("%x", le.Leaf[:]), Erased: le.Payload == nil}
	if p, err := le.DecodePayload(); err == nil {
		ev.Key, ev.Reason = p.Key, p.Reason
		if len(p.Content) > 0 {
			ev.Text = memgov.Version{Content: p.Content}.Text()
		}
	}
	return ev
}

func describeAll(es []oplog.Entry) []LogEvent {
	out := make([]LogEvent, len(es))
	for i, le := range es {
		out[i] = describe(le)
	}
	return out
}

// LogTail returns the newest entries after afterLSN, newest first, at most
// limit: the first page of the Activity screen, and what a poll adds to it.
func (s *Service) LogTail(ctx context.Context, afterLSN int64, limit int) ([]LogEvent, error) {
	es, err := s.eng.Audit().LogTail(ctx, afterLSN, limit)
	return describeAll(es), err
}

// LogBefore returns the page of entries older than beforeLSN, newest first.
func (s *Service) LogBefore(ctx context.Context, beforeLSN int64, limit int) ([]LogEvent, error) {
	es, err := s.eng.Audit().LogBefore(ctx, beforeLSN, limit)
	return describeAll(es), err
}

// LogSize is the cheap check a poller makes before fetching.
func (s *Service) LogSize(ctx context.Context) (int64, error) { return s.eng.Audit().LogSize(ctx) }

// AuditRoot returns the Merkle root over the whole log.
func (s *Service) AuditRoot(ctx context.Context) (memgov.AuditRoot, error) {
	return s.eng.Audit().AuditRoot(ctx)
}

// Metrics returns the governance quality metrics the health panel shows.
func (s *Service) Metrics(ctx context.Context) (audit.Metrics, error) {
	return s.eng.Audit().Metrics(ctx)
}

// HealthPolicy is how the health score is made (its weights and band
// cut-offs), for a screen that explains the score it shows.
func (s *Service) HealthPolicy() policy.Health { return s.eng.Policy().Health }
