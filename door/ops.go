package door

import (
	"context"
	"fmt"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
)

// The operations agents have, shared by the JSON API and MCP so both doors
// behave alike. Each acts as the authenticated principal p through the
// engine's MemoryAdapter, whose every call is confined to p's tenant.

// write runs a governed write as p. A body naming another agent is refused.
// A SYNC_BLOCK write waits for its review (as `memgov write --wait` does) up
// to MaxWait unless wait is false; a wait cut short by MaxWait or by a
// graceful shutdown is answered DEFERRED with the review id, whose fate
// memory_status and GET /v1/writes/{id} tell.
func (s *Server) write(ctx context.Context, p memgov.Principal, req memgov.WriteRequest, wait bool, door string) (memgov.WriteResult, error) {
	if err := engine.ActingAs(p, req.SourceAgentID); err != nil {
		s.metrics.denied(door)
		return memgov.WriteResult{}, err
	}
	start := time.Now()
	res, err := s.eng.Host().Adapter(memgov.As(p.ID)).Put(ctx, req)
	s.metrics.observeWrite(door, res, err, time.Since(start))
	if err != nil || !wait || res.Status != memgov.StatusDeferred || res.Tier != memgov.TierSync {
		return res, err
	}
	wctx, cancel := context.WithTimeout(ctx, s.cfg.MaxWait)
	defer cancel()
	stop := context.AfterFunc(s.drain, cancel)
	defer stop()
	s.metrics.waiting.Inc()
	out, werr := s.eng.Writes().WaitReview(wctx, res.ReviewID, s.cfg.Poll)
	s.metrics.waiting.Dec()
	if werr == nil {
		return out, nil
	}
	if ctx.Err() == nil && wctx.Err() != nil {
		why := "the wait limit passed"
		if s.drain.Err() != nil {
			why = "the server is shutting down"
		}
		res.Detail = fmt.Sprintf("still waiting for review %s (%s); ask memory_status or GET /v1/writes/%s", res.ReviewID, why, res.ReviewID)
		return res, nil
	}
	return res, werr
}

// Defaults of a write at the doors, for what an agent leaves out. An agent
// that calls add_memory(memory_ref, text) states something it was told in
// its conversation: the write goes to EPISODIC memory as a
// user_stated_preference, with one piece of evidence, a HUMAN_INPUT naming
// the agent's conversation (conversation:PRINCIPAL[/SESSION]), so the
// gates judge its content rather than refusing its form. Whatever the
// agent states itself (layer, observation type, evidence) is kept.
const (
	DefaultObservationType = "user_stated_preference"
	DefaultEvidenceType    = "HUMAN_INPUT"
)

// fillWrite completes req with the defaults an agent's write needs: the
// layer, and for a layer whose policy lists admitted observation types, an
// admitted type and, when the layer needs external evidence, the agent's
// conversation as that evidence.
func (s *Server) fillWrite(req *memgov.WriteRequest, p memgov.Principal) {
	if req.TargetLayer == "" {
		req.TargetLayer = memgov.Episodic
	}
	pol := s.eng.Policy()
	layer := string(req.TargetLayer)
	if req.ObservationType == "" && !pol.Admissible(layer, "") && pol.Admissible(layer, DefaultObservationType) {
		req.ObservationType = DefaultObservationType
	}
	if n, _ := pol.Evidence.MinExternal.Get(layer); n > 0 && len(req.EvidenceRefs) == 0 && req.ObservationType == DefaultObservationType {
		uri := "conversation:" + p.ID
		if req.SessionID != "" {
			uri += "/" + req.SessionID
		}
		req.EvidenceRefs = []oplog.EvidenceRef{{SourceType: DefaultEvidenceType, SourceURI: uri}}
	}
}

// WriteAnswer is a write's result as the doors answer it: the engine's
// result, and for a DEFERRED write what happens next.
type WriteAnswer struct {
	memgov.WriteResult
	Next *NextStep `json:"next,omitempty"`
}

// NextStep says what happens to a DEFERRED write: who decides, by when,
// what a missed deadline does, and how the agent follows it.
type NextStep struct {
	// Reviewer is who decides: "a curator or operator of tenant acme".
	Reviewer string `json:"reviewer,omitempty"`
	// DecideBy is the review's due time (RFC 3339 UTC).
	DecideBy string `json:"decide_by,omitempty"`
	// OnTimeout is what the write becomes if nobody decides by then.
	OnTimeout string `json:"on_timeout,omitempty"`
	// RetryAfter is, for a write deferred without a review (a rate limit,
	// a held lease), the seconds after which to send it again.
	RetryAfter *float64 `json:"retry_after,omitempty"`
	// Follow names how to learn the outcome, on each door.
	Follow map[string]string `json:"follow,omitempty"`
	// Text says all of it in a sentence.
	Text string `json:"text"`
}

// answerWrite adds to a DEFERRED result what happens next.
func (s *Server) answerWrite(ctx context.Context, res memgov.WriteResult) WriteAnswer {
	out := WriteAnswer{WriteResult: res}
	if res.Status != memgov.StatusDeferred {
		return out
	}
	if res.ReviewID == "" {
		n := &NextStep{RetryAfter: res.RetryAfter, Text: "Not memory yet and not queued for review: send the same write again"}
		if res.RetryAfter != nil {
			n.Text += fmt.Sprintf(" after %g seconds", *res.RetryAfter)
		}
		n.Text += " (" + res.Reason + ")."
		out.Next = n
		return out
	}
	rv, err := s.eng.Reviews().Review(ctx, res.ReviewID)
	if err != nil {
		s.log.Warn("review of a deferred write", "review", res.ReviewID, "err", err)
		return out
	}
	n := &NextStep{Reviewer: "a curator or operator of tenant " + rv.Tenant,
		Follow: map[string]string{"mcp": `memory_status {"review_id":"` + rv.ID + `"}`, "http": "GET /v1/writes/" + rv.ID}}
	if !rv.DueAt.IsZero() {
		n.DecideBy = rv.DueAt.UTC().Format(time.RFC3339)
	}
	if rv.Tier == memgov.TierSync {
		n.OnTimeout = "REJECTED " + memgov.ReasonApprovalTimeout
	} else {
		n.OnTimeout = "still DEFERRED: it stays in the review queue, overdue"
	}
	n.Text = fmt.Sprintf("Not memory yet: %s reviews it (%s, %s)", n.Reviewer, rv.Tier, rv.Reason)
	if n.DecideBy != "" {
		n.Text += " by " + n.DecideBy
	}
	if rv.Tier == memgov.TierSync {
		n.Text += "; undecided by then, it is rejected"
	}
	n.Text += ". It is queued: do not send it again (retry_after counts the seconds to the due time)"
	n.Text += ". Ask memory_status with review_id " + rv.ID + " (or GET /v1/writes/" + rv.ID + ") for the outcome: COMMITTED once approved, REJECTED with the reviewer's reason."
	out.Next = n
	return out
}
