package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/scope"
)

// This file is the host memory contract (spec §15.2):
// a MemoryAdapter bound to one principal lists and reads the entries of a
// memoryRef (CTI-1: never another tenant's), writes through the governed
// pipeline and deletes by a governed soft delete (a RETRACT log entry).

// ErrMemoryUnavailable is wrapped by the errors a MemoryAdapter returns when
// the store fails. Its message never carries entry data (CTI-1, "errors don't
// leak").
var ErrMemoryUnavailable = errors.New("memory is unavailable")

// adapterError hides the cause's text behind a fixed message while keeping it
// reachable with errors.Is and errors.As for the host.
type adapterError struct{ cause error }

func (e *adapterError) Error() string { return ErrMemoryUnavailable.Error() }
func (e *adapterError) Unwrap() []error {
	return []error{ErrMemoryUnavailable, e.cause}
}

func hideErr(err error) error {
	if err == nil || errors.Is(err, memgov.ErrUnauthorized) || errors.Is(err, memgov.ErrForbidden) || errors.Is(err, memgov.ErrInvalid) {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &adapterError{cause: err}
}

// ListOptions are the contract's MemoryListOptions.
type ListOptions struct {
	Limit int    `json:"limit,omitempty"` // 0: every entry (the host bounds nothing else)
	Tag   string `json:"tag,omitempty"`
	// AtLSN reads the snapshot recorded at a log position (replay): 0 is now.
	AtLSN int64 `json:"-"`
	// AfterKey pages by key (host extension).
	AfterKey string `json:"-"`
}

// MemoryAdapter is the host memory contract bound to one principal: every
// call is confined to the principal's tenant. An installation-wide principal
// (tenant "*") reads every tenant. The zero value is not usable; get one from
// Engine.Adapter.
type MemoryAdapter struct {
	e         *Engine
	principal string
	local     bool
}

// Adapter returns the MemoryAdapter of a registered principal. The principal
// is looked up on every call, so an adapter never outlives a change of tenant.
func (e *Engine) Adapter(principal string) *MemoryAdapter {
	return &MemoryAdapter{e: e, principal: principal}
}

// LocalAdapter returns the adapter of the database's local owner: whoever
// holds the database and its key reads every tenant (as `memgov list` does
// without --as). It cannot Put or Delete, which need a registered principal.
func (e *Engine) LocalAdapter() *MemoryAdapter {
	return &MemoryAdapter{e: e, local: true}
}

// Principal returns the id the adapter is bound to.
func (a *MemoryAdapter) Principal() string { return a.principal }

// resolve parses ref and reports whether the principal may read it. A
// malformed ref or one of another tenant resolves to ok=false, never to an
// error: the caller answers [] or null. An unknown principal is an error
// (ErrUnauthorized) that names the principal, not the ref.
func (a *MemoryAdapter) resolve(ctx context.Context, tx memgov.ReadTx, ref string) (memgov.Principal, bool, error) {
	r, err := scope.Parse(ref)
	if err != nil {
		return memgov.Principal{}, false, nil
	}
	if a.local {
		return memgov.Principal{ID: "local", Role: memgov.Operator, Tenant: memgov.AllTenants}, r.Valid(), nil
	}
	p, err := tx.Principal(ctx, a.principal)
	if err != nil {
		if isNotFound(err) {
			return memgov.Principal{}, false, fmt.Errorf("%w: %q is not a registered principal", memgov.ErrUnauthorized, safeID(a.principal))
		}
		return memgov.Principal{}, false, err
	}
	if !authz.GovernsScope(p, r) {
		return p, false, nil
	}
	return p, true, nil
}

// List returns the visible entries of ref: ACTIVE, unexpired, ordered by key;
// [] for a malformed or unknown ref or one outside the principal's tenant.
// The read is recorded (ListRead); List returns the contract's entries.
func (a *MemoryAdapter) List(ctx context.Context, ref string, opts ListOptions) ([]Entry, error) {
	r, err := a.ListRead(ctx, ref, opts)
	return Entries(r.Versions), err
}

// ListVersions is List with whole version records; the read is recorded.
func (a *MemoryAdapter) ListVersions(ctx context.Context, ref string, opts ListOptions) ([]memgov.Version, error) {
	r, err := a.ListRead(ctx, ref, opts)
	if r.Versions == nil {
		r.Versions = []memgov.Version{}
	}
	return r.Versions, err
}

func (a *MemoryAdapter) listVersions(ctx context.Context, ref string, opts ListOptions) ([]memgov.Version, error) {
	if opts.Limit < 0 {
		return []memgov.Version{}, fmt.Errorf("%w: limit must be 0 or more", memgov.ErrInvalid)
	}
	out := []memgov.Version{}
	err := a.e.store.View(ctx, func(tx memgov.ReadTx) error {
		p, ok, err := a.resolve(ctx, tx, ref)
		if err != nil || !ok {
			return err
		}
		at := opts.AtLSN
		now := a.e.Now()
		if at > 0 {
			size, err := tx.LogSize(ctx)
			if err != nil {
				return err
			}
			if at > size {
				return fmt.Errorf("%w: LSN %d is beyond the end of the log", memgov.ErrInvalid, at)
			}
		}
		vs, err := activeView(ctx, tx, memgov.ActiveQuery{MemoryRef: ref, Tag: opts.Tag, AtLSN: at, Now: now, Limit: opts.Limit, AfterKey: opts.AfterKey})
		if err != nil {
			return err
		}
		if !a.local {
			vs, _ = a.e.visibleOnly(p, vs)
		}
		out = vs
		return nil
	})
	if err != nil {
		return []memgov.Version{}, hideErr(err)
	}
	return out, nil
}

// Get returns the visible entry id of ref, or nil: nil also for a malformed
// ref or one outside the principal's tenant. The read is recorded (GetRead).
func (a *MemoryAdapter) Get(ctx context.Context, ref, id string) (*Entry, error) {
	v, err := a.GetVersion(ctx, ref, id)
	if err != nil || v == nil {
		return nil, err
	}
	en := EntryOf(*v)
	return &en, nil
}

// GetVersion is Get with the whole version record; the read is recorded.
func (a *MemoryAdapter) GetVersion(ctx context.Context, ref, id string) (*memgov.Version, error) {
	r, err := a.GetRead(ctx, ref, id)
	if err != nil || len(r.Versions) == 0 {
		return nil, err
	}
	return &r.Versions[0], nil
}

func (a *MemoryAdapter) getVersion(ctx context.Context, ref, id string) (*memgov.Version, error) {
	var out *memgov.Version
	err := a.e.store.View(ctx, func(tx memgov.ReadTx) error {
		p, ok, err := a.resolve(ctx, tx, ref)
		if err != nil || !ok {
			return err
		}
		v, found, err := headView(ctx, tx, ref, id, a.e.Now())
		if err != nil || !found {
			return err
		}
		if !a.local && a.e.visible(p, v) != nil {
			return nil
		}
		out = &v
		return nil
	})
	if err != nil {
		return nil, hideErr(err)
	}
	return out, nil
}

// Put writes through the governed pipeline as the adapter's principal: the
// request's source_agent_id is the principal, whatever it says. A SYNC_BLOCK
// write returns DEFERRED: the door waits for the decision (memgov write and
// the serve doors wait with WaitReview/AwaitSync, under their own limits).
func (a *MemoryAdapter) Put(ctx context.Context, req memgov.WriteRequest) (memgov.WriteResult, error) {
	if a.local {
		return memgov.WriteResult{}, fmt.Errorf("%w: writing needs a registered principal", memgov.ErrInvalid)
	}
	req.SourceAgentID = a.principal
	req.Raw = nil
	return a.e.writes.Write(ctx, req)
}

// DeleteResult reports a governed delete.
type DeleteResult struct {
	Deleted   bool   `json:"deleted"`
	ItemID    string `json:"item_id,omitempty"`
	VersionID string `json:"version_id,omitempty"`
	LSN       int64  `json:"lsn,omitempty"`
}

// Delete is the contract's governed soft delete: the visible version of
// ref/id is RETRACTED by a log entry naming the principal and the reason; the
// item and its history remain for audit (spec §13.16, "no hard DELETE"). A
// missing entry, a malformed ref or one of another tenant deletes nothing and
// is not an error (Deleted is false). The principal needs the delete right on
// the entry's layer (RBAC) or must be a curator or operator of the tenant.
func (a *MemoryAdapter) Delete(ctx context.Context, ref, id, reason string) (DeleteResult, error) {
	if strings.TrimSpace(reason) == "" {
		return DeleteResult{}, fmt.Errorf("%w: a delete needs a reason", memgov.ErrInvalid)
	}
	if a.local {
		return DeleteResult{}, fmt.Errorf("%w: deleting needs a registered principal", memgov.ErrInvalid)
	}
	var res DeleteResult
	err := a.e.store.Update(ctx, func(tx memgov.Tx) error {
		p, ok, err := a.resolve(ctx, tx, ref)
		if err != nil || !ok {
			return err
		}
		item, err := tx.ItemByKey(ctx, ref, id)
		if isNotFound(err) || (err == nil && item.Head == "") {
			return nil
		}
		if err != nil {
			return err
		}
		if !a.e.authz.Deletes(p, item.Layer) {
			return fmt.Errorf("%w: a %s may not delete %s memory", memgov.ErrForbidden, p.Role, item.Layer)
		}
		v, err := tx.Version(ctx, item.Head)
		if err != nil {
			return err
		}
		if v.State != memgov.Active || v.ExpiredAt(a.e.Now()) {
			return nil
		}
		lsn, err := a.e.retract(ctx, tx, v, p.ID, reason)
		if err != nil {
			return err
		}
		res = DeleteResult{Deleted: true, ItemID: v.ItemID, VersionID: v.ID, LSN: lsn}
		return nil
	})
	return res, hideErr(err)
}

// retract appends the RETRACT entry of an ACTIVE version.
func (e *Engine) retract(ctx context.Context, tx memgov.Tx, v memgov.Version, actor, reason string) (int64, error) {
	entry := &oplog.Entry{Time: e.Now(), Op: oplog.Retract, MemoryRef: v.MemoryRef, ItemID: v.ItemID,
		VersionID: v.ID, PrevVersionID: v.Prev, Actor: actor}
	if err := oplog.Append(ctx, tx, entry, oplog.Payload{Reason: reason}); err != nil {
		return 0, err
	}
	return entry.LSN, nil
}

// Commitments lists the commitments of a memoryRef the adapter's principal
// may read ([] for a malformed ref or one of another tenant).
func (a *MemoryAdapter) Commitments(ctx context.Context, ref string) ([]memgov.Commitment, error) {
	out := []memgov.Commitment{}
	err := a.e.store.View(ctx, func(tx memgov.ReadTx) error {
		_, ok, err := a.resolve(ctx, tx, ref)
		if err != nil || !ok {
			return err
		}
		list, err := tx.Commitments(ctx, ref)
		if err == nil && list != nil {
			out = list
		}
		return err
	})
	return out, hideErr(err)
}
