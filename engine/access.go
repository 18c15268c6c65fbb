package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
)

// Authorize decides authorized(a, m, op) of spec §12.8.2 for a principal acting on
// memory of ref in layer: the tenant (CTI-1), the RBAC matrix, and the ABAC
// condition of the executor row ("own session": WORKING and SESSION memory of
// a ref whose agent segment is the executor itself). op is a policy.Op*.
func (e *Engine) Authorize(ctx context.Context, principalID, ref string, layer memgov.Layer, op string) error {
	var p memgov.Principal
	err := e.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		p, err = tx.Principal(ctx, principalID)
		return err
	})
	if err != nil {
		if isNotFound(err) {
			return fmt.Errorf("%w: unknown principal %q", memgov.ErrUnauthorized, principalID)
		}
		return err
	}
	return e.authz.Authorized(p, ref, layer, op)
}

func agentOf(ref string) string {
	parts := strings.Split(ref, "/")
	if len(parts) < 2 {
		return ""
	}
	return parts[1]
}

// clearance is the principal's "clearance" attribute; people without one are
// cleared for everything, agents for GENERAL.
func (e *Engine) clearance(p memgov.Principal) string {
	if c := p.Attributes["clearance"]; c != "" {
		return strings.ToUpper(c)
	}
	if authz.Human(p) {
		if o := e.policy.Visibility.Order; len(o) > 0 {
			return o[len(o)-1]
		}
	}
	return policy.General
}

// inDomains reports domain(m) ⊆ domains(a) (authz.InDomains).
func inDomains(p memgov.Principal, tags []string) bool { return authz.InDomains(p, tags) }

// visible is spec §12.8.5: authorized(a, m, READ) ∧ classification(m) <= clearance(a)
// ∧ domain(m) ⊆ domains(a). Unclassified memory counts as PUBLIC. The host's
// reserved keys of an agent's own memoryRef (its distillation index and
// archives, spec §15.7) are the agent's to load whatever their layer; clearance
// and domains still apply to them.
func (e *Engine) visible(p memgov.Principal, v memgov.Version) error {
	own := memgov.Reserved(v.Key) && agentOf(v.MemoryRef) == p.ID && authz.Governs(p, tenantOf(v.MemoryRef))
	if err := e.authz.Authorized(p, v.MemoryRef, v.Layer, policy.OpRead); err != nil && !own {
		return err
	}
	class := v.Classification
	if class == "" {
		class = policy.Public
	}
	if !e.policy.Cleared(e.clearance(p), class) {
		return fmt.Errorf("%w: %s memory needs a higher clearance than %s's", memgov.ErrForbidden, class, p.ID)
	}
	if !inDomains(p, v.Tags) {
		return fmt.Errorf("%w: the entry's domain is outside %s's domains", memgov.ErrForbidden, p.ID)
	}
	return nil
}

// ScopedSnapshot is a read as a principal: only what it may see, and the id
// of the retrieval for usage feedback (memgov feedback).
type ScopedSnapshot struct {
	memgov.Snapshot
	RetrievalID string `json:"retrieval_id,omitempty"`
	Hidden      int    `json:"hidden"` // entries the principal may not see
}

// ReadAs is Read for a principal: every entry passes visible(a, m). Reads of
// the current state are counted for relevance decay (access reinforcement)
// and recorded as a retrieval for precision and staleness metrics. Reads are
// not log entries: they change no memory. They cost one small write
// transaction per call, not per entry.
func (e *Engine) ReadAs(ctx context.Context, principalID string, q memgov.ReadQuery) (ScopedSnapshot, error) {
	p, err := e.Principal(ctx, principalID)
	if err != nil {
		return ScopedSnapshot{}, fmt.Errorf("%w: unknown principal %q", memgov.ErrUnauthorized, principalID)
	}
	if !authz.Governs(p, tenantOf(q.MemoryRef)) {
		return ScopedSnapshot{}, fmt.Errorf("%w: %s belongs to tenant %s", memgov.ErrForbidden, p.ID, p.Tenant)
	}
	snap, err := e.Read(ctx, q)
	if err != nil {
		return ScopedSnapshot{}, err
	}
	out := ScopedSnapshot{Snapshot: snap}
	kept, hidden := e.visibleOnly(p, snap.Versions)
	out.Versions, out.Hidden = kept, hidden
	if q.AtLSN == 0 && q.AtTime.IsZero() {
		out.RetrievalID, err = e.recordRead(ctx, p.ID, q.MemoryRef, kept)
	}
	return out, err
}

// GetAs is Get for a principal: memgov.ErrForbidden when the entry is not visible to it.
func (e *Engine) GetAs(ctx context.Context, principalID, ref, key string) (memgov.Version, error) {
	p, err := e.Principal(ctx, principalID)
	if err != nil {
		return memgov.Version{}, fmt.Errorf("%w: unknown principal %q", memgov.ErrUnauthorized, principalID)
	}
	if !authz.Governs(p, tenantOf(ref)) {
		return memgov.Version{}, fmt.Errorf("%w: %s belongs to tenant %s", memgov.ErrForbidden, p.ID, p.Tenant)
	}
	v, err := e.Get(ctx, ref, key)
	if err != nil {
		return v, err
	}
	if err := e.visible(p, v); err != nil {
		return memgov.Version{}, err
	}
	_, err = e.recordRead(ctx, p.ID, ref, []memgov.Version{v})
	return v, err
}

// HistoryAs is History for a principal.
func (e *Engine) HistoryAs(ctx context.Context, principalID, itemID string) (memgov.Item, []memgov.Version, error) {
	p, err := e.Principal(ctx, principalID)
	if err != nil {
		return memgov.Item{}, nil, fmt.Errorf("%w: unknown principal %q", memgov.ErrUnauthorized, principalID)
	}
	item, vs, err := e.History(ctx, itemID)
	if err != nil {
		return item, nil, err
	}
	if err := e.authz.Authorized(p, item.MemoryRef, item.Layer, policy.OpRead); err != nil {
		return memgov.Item{}, nil, err
	}
	kept := vs[:0]
	for _, v := range vs {
		if e.visible(p, v) == nil {
			kept = append(kept, v)
		}
	}
	return item, kept, nil
}

func (e *Engine) recordRead(ctx context.Context, principal, ref string, vs []memgov.Version) (string, error) {
	if len(vs) == 0 {
		return "", nil
	}
	now := e.Now()
	id := oplog.NewID()
	err := e.store.Update(ctx, func(tx memgov.Tx) error {
		ids := make([]string, len(vs))
		for i, v := range vs {
			ids[i] = v.ID
		}
		return tx.RecordRead(ctx, id, principal, ref, now, ids)
	})
	return id, err
}

// Feedback records which items of a retrieval were used (cited, reasoned
// with): the usage feedback behind retrieval precision (spec §12.12.4) and impact(m)
// of relevance decay (spec §12.7.2). It returns how many of used were in the retrieval.
func (e *Engine) Feedback(ctx context.Context, retrievalID string, usedItems []string) (int, error) {
	var n int
	err := e.store.Update(ctx, func(tx memgov.Tx) (err error) {
		n, err = tx.RecordFeedback(ctx, retrievalID, usedItems, e.Now())
		return err
	})
	return n, err
}

// visibleOnly keeps the versions visible(p, v) lets p read and counts the
// others. It is the one read rule: ReadAs, GetAs, HistoryAs and every
// MemoryAdapter read (List, Get, Search) filter through visible.
func (e *Engine) visibleOnly(p memgov.Principal, vs []memgov.Version) ([]memgov.Version, int) {
	kept := vs[:0]
	hidden := 0
	for _, v := range vs {
		if e.visible(p, v) == nil {
			kept = append(kept, v)
		} else {
			hidden++
		}
	}
	return kept, hidden
}
