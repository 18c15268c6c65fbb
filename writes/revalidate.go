package writes

import (
	"context"
	"fmt"
	"math"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
)

// RevalidationReport is the result of a re-validation sweep.
type RevalidationReport struct {
	Sampled int     `json:"sampled"`
	Failed  int     `json:"failed"`
	Rate    float64 `json:"hallucination_leakage_rate"`
	// Why counts the failures by cause: evidence that no longer reaches the
	// layer's threshold, a contradiction by ACTIVE memory, evidence refuted
	// since admission (a cited memory item no longer ACTIVE).
	Why map[string]int `json:"failures_by_cause"`
}

// Causes of a failed re-validation.
const (
	RevalidationEvidence      = "evidence_below_threshold"
	RevalidationContradicted  = "contradicted"
	RevalidationRefutedSource = "evidence_refuted"
)

// Revalidate re-verifies up to limit ACTIVE durable versions against today's
// state (spec §12.11.3 "periodic memory audit sweeps", spec §12.12.5): a version fails
// when the factual score of its recorded evidence no longer reaches the
// layer's threshold under the policy in force, when ACTIVE memory of its
// memoryRef now contradicts it, or when memory it cites as evidence has been
// retracted, expired or quarantined since. Failures measure the hallucination
// leakage rate. Results are telemetry, not log entries.
func (s *Service) Revalidate(ctx context.Context, limit int) (RevalidationReport, error) {
	rep := RevalidationReport{Why: map[string]int{}}
	err := s.store.Update(ctx, func(tx memgov.Tx) error {
		d, err := tx.ComplianceData(ctx)
		if err != nil {
			return err
		}
		now := s.now()
		for _, v := range d.Active {
			if limit > 0 && rep.Sampled >= limit {
				break
			}
			if !v.Layer.Durable() {
				continue
			}
			cause, score, err := s.revalidate(ctx, tx, v)
			if err != nil {
				return err
			}
			rep.Sampled++
			if cause != "" {
				rep.Failed++
				rep.Why[cause]++
			}
			if err := tx.RecordRevalidation(ctx, v.ID, now, cause == "", score); err != nil {
				return err
			}
		}
		return nil
	})
	if rep.Sampled > 0 {
		rep.Rate = math.Round(float64(rep.Failed)/float64(rep.Sampled)*1e4) / 1e4
	}
	return rep, err
}

// revalidate judges one ACTIVE version against today's state; cause is ""
// when it still passes.
func (s *Service) revalidate(ctx context.Context, tx memgov.Tx, v memgov.Version) (cause string, score float64, err error) {
	var meta oplog.VersionData
	if err := tx.LogRange(ctx, v.CreatedLSN, v.CreatedLSN, func(le *oplog.Entry) (err error) {
		meta, err = oplog.DecodeOptionalData[oplog.VersionData](le)
		return err
	}); err != nil {
		return "", 0, err
	}
	ev := make([]policy.Evidence, 0, len(meta.Evidence))
	for _, r := range meta.Evidence {
		pe := policy.Evidence{SourceType: r.SourceType, Support: 1, AccessedAt: v.CreatedAt}
		if r.Authority != nil {
			pe.Authority = *r.Authority
		}
		if r.AccessedAt != nil {
			pe.AccessedAt = *r.AccessedAt
		}
		ev = append(ev, pe)
	}
	// The evidence is scored as of admission under the policy in force now:
	// its ageing since is staleness, which retrieval measures.
	res := s.policy.FactualScore(string(v.Layer), ev, v.CreatedAt)
	score = res.Score
	if !res.Pass {
		return RevalidationEvidence, score, nil
	}
	// Evidence found since admission: cited memory that is gone.
	for _, r := range meta.Evidence {
		if r.SourceType != policy.MemoryItem || r.SourceItemID == "" {
			continue
		}
		it, err := tx.Item(ctx, r.SourceItemID)
		if err != nil && !isNotFound(err) {
			return "", 0, err
		}
		if err != nil || it.Head == "" {
			return RevalidationRefutedSource, score, nil
		}
	}
	// Contradictions found since admission: ACTIVE memory of the ref that
	// contradicts the version now (the deterministic judges).
	feat, err := s.Features(v.Content)
	if err != nil {
		return "", 0, fmt.Errorf("revalidate %s: version %s: %w", v.Key, v.ID, err)
	}
	ct, err := gate.Contradiction{}.Evaluate(ctx, gate.ContradictionInput{MemoryRef: v.MemoryRef, Layer: v.Layer, ContentHash: v.ContentHash,
		Features: feat, Confidence: v.Confidence, OwnItemID: v.ItemID, Policy: &s.policy, Reader: tx,
		Rules: s.rules})
	if err != nil {
		return "", 0, fmt.Errorf("revalidate %s: %w", v.Key, err)
	}
	for _, c := range ct.Contradicts {
		if c.State == memgov.Active {
			return RevalidationContradicted, score, nil
		}
	}
	if ct.Finding != "" {
		return RevalidationContradicted, score, nil
	}
	return "", score, nil
}
