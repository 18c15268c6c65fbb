package door

import (
	"context"
	"fmt"
	"time"

	"github.com/memgov/memgov/engine"
)

// The operations agents have, shared by the JSON API and MCP so both doors
// behave alike. Each acts as the authenticated principal p through the
// engine's MemoryAdapter, whose every call is confined to p's tenant.

// write runs a governed write as p. A body naming another agent is refused.
// A SYNC_BLOCK write waits for its review (as `memgov write --wait` does) up
// to MaxWait unless wait is false; a wait cut short by MaxWait or by a
// graceful shutdown is answered DEFERRED with the review id, whose fate
// memory_status and GET /v1/writes/{id} tell.
func (s *Server) write(ctx context.Context, p engine.Principal, req engine.WriteRequest, wait bool, door string) (engine.WriteResult, error) {
	if err := engine.ActingAs(p, req.SourceAgentID); err != nil {
		s.metrics.denied(door)
		return engine.WriteResult{}, err
	}
	start := time.Now()
	res, err := s.eng.Adapter(p.ID).Put(ctx, req)
	s.metrics.observeWrite(door, res, err, time.Since(start))
	if err != nil || !wait || res.Status != engine.StatusDeferred || res.Tier != engine.TierSync {
		return res, err
	}
	wctx, cancel := context.WithTimeout(ctx, s.cfg.MaxWait)
	defer cancel()
	stop := context.AfterFunc(s.drain, cancel)
	defer stop()
	s.metrics.waiting.Inc()
	out, werr := s.eng.WaitReview(wctx, res.ReviewID, s.cfg.Poll)
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
