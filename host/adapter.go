package host

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
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

// MemoryAdapter is the host memory contract bound to one reader: every
// call is confined to what the reader may read. A principal reads its own
// tenant; an installation-wide principal (tenant "*") every tenant; the
// local owner (memgov.Owner) every tenant, unfiltered, and may not Put or
// Delete, which need a registered principal. The zero value is not usable;
// get one from Service.Adapter.
type MemoryAdapter struct {
	s      *Service
	reader memgov.Reader
}

// Adapter returns the MemoryAdapter of reader r. A principal is looked up
// on every call, so an adapter never outlives a change of tenant.
func (s *Service) Adapter(r memgov.Reader) *MemoryAdapter {
	return &MemoryAdapter{s: s, reader: r}
}

// Reader returns the reader the adapter is bound to.
func (a *MemoryAdapter) Reader() memgov.Reader { return a.reader }

// resolve parses ref and reports whether the reader may read it. A
// malformed ref or one of another tenant resolves to ok=false, never to an
// error: the caller answers [] or null. An unknown principal is an error
// (ErrUnauthorized) that names the principal, not the ref.
func (a *MemoryAdapter) resolve(ctx context.Context, tx memgov.ReadTx, ref string) (authz.Reading, bool, error) {
	r, err := scope.Parse(ref)
	if err != nil {
		return authz.Reading{}, false, nil
	}
	if a.reader.IsOwner() {
		return authz.OwnerReading, a.s.authz.ReadsScope(authz.OwnerReading, r), nil
	}
	p, err := tx.Principal(ctx, a.reader.ID())
	if err != nil {
		if isNotFound(err) {
			return authz.Reading{}, false, fmt.Errorf("%w: %q is not a registered principal", memgov.ErrUnauthorized, safeID(a.reader.ID()))
		}
		return authz.Reading{}, false, err
	}
	rd := authz.ReadingOf(p)
	return rd, a.s.authz.ReadsScope(rd, r), nil
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
	err := a.s.store.View(ctx, func(tx memgov.ReadTx) error {
		rd, ok, err := a.resolve(ctx, tx, ref)
		if err != nil || !ok {
			return err
		}
		at := opts.AtLSN
		now := a.s.now()
		if at > 0 {
			size, err := tx.LogSize(ctx)
			if err != nil {
				return err
			}
			if at > size {
				return fmt.Errorf("%w: LSN %d is beyond the end of the log", memgov.ErrInvalid, at)
			}
		}
		vs, err := Active(ctx, tx, memgov.ActiveQuery{MemoryRef: ref, Tag: opts.Tag, AtLSN: at, Now: now, Limit: opts.Limit, AfterKey: opts.AfterKey})
		if err != nil {
			return err
		}
		if err := readable(vs...); err != nil {
			return err
		}
		out, _ = a.s.visibleOnly(rd, vs)
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
	err := a.s.store.View(ctx, func(tx memgov.ReadTx) error {
		rd, ok, err := a.resolve(ctx, tx, ref)
		if err != nil || !ok {
			return err
		}
		v, found, err := headView(ctx, tx, ref, id, a.s.now())
		if err != nil || !found {
			return err
		}
		if err := readable(v); err != nil {
			return err
		}
		if a.s.authz.Visible(rd, v) != nil {
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
	if a.reader.IsOwner() {
		return memgov.WriteResult{}, fmt.Errorf("%w: writing needs a registered principal", memgov.ErrInvalid)
	}
	req.SourceAgentID = a.reader.ID()
	req.Raw = nil
	return a.s.writes.Write(ctx, req)
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
	if a.reader.IsOwner() {
		return DeleteResult{}, fmt.Errorf("%w: deleting needs a registered principal", memgov.ErrInvalid)
	}
	var res DeleteResult
	err := a.s.store.Update(ctx, func(tx memgov.Tx) error {
		rd, ok, err := a.resolve(ctx, tx, ref)
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
		if p := rd.Principal; !a.s.authz.Deletes(p, item.Layer) {
			return fmt.Errorf("%w: a %s may not delete %s memory", memgov.ErrForbidden, p.Role, item.Layer)
		}
		v, err := tx.Version(ctx, item.Head)
		if err != nil {
			return err
		}
		if v.State != memgov.Active || v.ExpiredAt(a.s.now()) {
			return nil
		}
		lsn, err := a.s.writes.Retract(ctx, tx, v, rd.Principal.ID, reason)
		if err != nil {
			return err
		}
		res = DeleteResult{Deleted: true, ItemID: v.ItemID, VersionID: v.ID, LSN: lsn}
		return nil
	})
	return res, hideErr(err)
}

// Commitments lists the commitments of a memoryRef the adapter's principal
// may read ([] for a malformed ref or one of another tenant).
func (a *MemoryAdapter) Commitments(ctx context.Context, ref string) ([]memgov.Commitment, error) {
	out := []memgov.Commitment{}
	err := a.s.store.View(ctx, func(tx memgov.ReadTx) error {
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
