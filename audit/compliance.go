package audit

import (
	"context"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// ComplianceItem is one finding of the compliance report.
type ComplianceItem struct {
	ItemID         string       `json:"item_id"`
	MemoryRef      string       `json:"memory_ref"`
	Key            string       `json:"key"`
	Layer          memgov.Layer `json:"layer"`
	Classification string       `json:"classification,omitempty"`
	Residency      string       `json:"residency,omitempty"`
	CreatedAt      time.Time    `json:"created_at"`
	Detail         string       `json:"detail"`
	// NextAction is what settles the finding, when an action does
	// (garbage collection, for an item past its TTL).
	NextAction memgov.NextAction `json:"next_action,omitempty"`
}

// ComplianceReport is the periodic compliance audit of spec §12.10.5.
type ComplianceReport struct {
	At                  time.Time           `json:"at"`
	RetentionBreaches   []ComplianceItem    `json:"retention_breaches"`
	Erasures            []memgov.ErasureRow `json:"erasures"`
	ErasuresIncomplete  int                 `json:"erasures_incomplete"`
	ResidencyViolations []ComplianceItem    `json:"residency_violations"`
	ResidencyRejections int                 `json:"residency_rejections"`
	PastTTL             []ComplianceItem    `json:"past_ttl_still_present"`
	OK                  bool                `json:"ok"`
}

// ComplianceReport scans memory for retention breaches (ACTIVE past the
// classification's retention), lists erasure requests and their completion
// (incomplete: not finished within 72 hours, spec §12.12.6), residency violations
// (stored items whose residency class the store's region no longer allows,
// and refused writes) and items past their TTL that GC has not expired yet.
func (s *Service) ComplianceReport(ctx context.Context) (ComplianceReport, error) {
	rep := ComplianceReport{At: s.now(), RetentionBreaches: []ComplianceItem{}, ResidencyViolations: []ComplianceItem{}, PastTTL: []ComplianceItem{}}
	err := s.store.View(ctx, func(tx memgov.ReadTx) error {
		d, err := tx.ComplianceData(ctx)
		if err != nil {
			return err
		}
		rep.Erasures, rep.ResidencyRejections = d.Erasures, d.ResidencyRejections
		for _, er := range d.Erasures {
			if er.CompletedAt.Sub(er.RequestedAt) > 72*time.Hour || len(er.Left) > 0 {
				rep.ErasuresIncomplete++
			}
		}
		for _, v := range d.Active {
			ci := ComplianceItem{ItemID: v.ItemID, MemoryRef: v.MemoryRef, Key: v.Key, Layer: v.Layer, Classification: v.Classification, CreatedAt: v.CreatedAt}
			item, err := tx.Item(ctx, v.ItemID)
			if err != nil {
				return err
			}
			if v.Classification != "" && s.policy.RetentionExpired(v.Classification, rep.At.Sub(item.CreatedAt)) {
				c := ci
				c.Detail = "past the " + v.Classification + " retention"
				if item.Pinned {
					c.Detail += " (pinned: GC may not collect it; unpin or erase)"
				}
				rep.RetentionBreaches = append(rep.RetentionBreaches, c)
			}
			if v.ExpiredAt(rep.At) {
				c := ci
				c.Detail = "TTL passed " + v.ExpiresAt.Format(time.RFC3339) + "; garbage collection expires it"
				c.NextAction = memgov.NextRunGC
				rep.PastTTL = append(rep.PastTTL, c)
			}
			var meta oplog.VersionData
			if err := tx.LogRange(ctx, v.CreatedLSN, v.CreatedLSN, func(le *oplog.Entry) (err error) {
				meta, err = oplog.DecodeOptionalData[oplog.VersionData](le)
				return err
			}); err != nil {
				return err
			}
			if meta.Residency != "" && !s.policy.ResidencyAllowed(meta.Residency) {
				c := ci
				c.Residency = meta.Residency
				c.Detail = "residency " + meta.Residency + " is not allowed in region " + s.policy.Residency.StoreRegion
				rep.ResidencyViolations = append(rep.ResidencyViolations, c)
			}
		}
		return nil
	})
	rep.OK = err == nil && len(rep.RetentionBreaches) == 0 && rep.ErasuresIncomplete == 0 && len(rep.ResidencyViolations) == 0 && len(rep.PastTTL) == 0
	return rep, err
}
