package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/scope"
	"github.com/memgov/memgov/host"
)

// Refs lists the memoryRefs the actor may read, with item counts.
func (s *Service) Refs(ctx context.Context) ([]memgov.RefSummary, error) {
	all, err := s.eng.Host().Refs(ctx, memgov.Owner)
	if err != nil {
		return nil, err
	}
	out := make([]memgov.RefSummary, 0, len(all))
	for _, r := range all {
		if s.sees(r.MemoryRef) {
			out = append(out, r)
		}
	}
	return out, nil
}

// AsOf is a point in the log's past; the zero AsOf is now.
type AsOf struct {
	LSN  int64
	Time time.Time
}

// Now reports whether the AsOf is the present.
func (a AsOf) Now() bool { return a.LSN == 0 }

// ParseAsOf resolves what a person typed to a log position: "" or "now"; an
// LSN ("1842"); an RFC 3339 time ("2026-11-20T14:03:00Z"), or "2026-11-20
// 14:03" / "2026-11-20" in UTC; or a duration ago ("2h", "-90m", "2h ago").
func (s *Service) ParseAsOf(ctx context.Context, spec string) (AsOf, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" || strings.EqualFold(spec, "now") {
		return AsOf{}, nil
	}
	size, err := s.eng.Audit().LogSize(ctx)
	if err != nil {
		return AsOf{}, err
	}
	if n, err := strconv.ParseInt(spec, 10, 64); err == nil {
		if n < 1 || n > size {
			return AsOf{}, fmt.Errorf("%w: LSN %d is outside the log (1..%d)", memgov.ErrInvalid, n, size)
		}
		if n == size {
			return AsOf{}, nil
		}
		le, err := s.eng.Audit().LogEntryAt(ctx, n)
		if err != nil {
			return AsOf{}, err
		}
		return AsOf{LSN: n, Time: le.Time}, nil
	}
	t, ok := parseTime(spec, s.eng.Now())
	if !ok {
		return AsOf{}, fmt.Errorf("%w: %q is not an LSN, an RFC 3339 time (2026-11-20T14:03:00Z) or a duration ago (2h)", memgov.ErrInvalid, spec)
	}
	n, err := s.eng.Audit().LSNAt(ctx, t)
	if err != nil {
		return AsOf{}, err
	}
	if n == 0 {
		return AsOf{}, fmt.Errorf("%w: the log begins after %s", memgov.ErrInvalid, t.Format(time.RFC3339))
	}
	if n == size && !t.Before(s.eng.Now()) {
		return AsOf{}, nil
	}
	return AsOf{LSN: n, Time: t.UTC()}, nil
}

func parseTime(spec string, now time.Time) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, spec, time.UTC); err == nil {
			return t, true
		}
	}
	d := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(spec, "-"), "ago"))
	if dur, err := time.ParseDuration(d); err == nil && dur > 0 {
		return now.Add(-dur), true
	}
	return time.Time{}, false
}

// ItemsQuery selects a page of a memoryRef's visible items.
type ItemsQuery struct {
	MemoryRef string
	AfterKey  string // keyset paging: the last key of the previous page
	Limit     int    // 0: 100
	At        AsOf
}

// Page is a page of visible items, ordered by key.
type Page struct {
	Versions []memgov.Version
	More     bool // another page follows
	LSN      int64
	Time     time.Time
}

// Items returns a page of the ACTIVE, unexpired items of a memoryRef, now or
// at a past log position.
func (s *Service) Items(ctx context.Context, q ItemsQuery) (Page, error) {
	if !s.sees(q.MemoryRef) {
		return Page{}, &ForbiddenError{Msg: fmt.Sprintf("%s may not read tenant memory outside %s", s.actor.ID, s.actor.Tenant)}
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 100
	}
	var snap memgov.Snapshot
	var err error
	if q.At.Now() {
		snap, err = s.eng.Host().ActivePage(ctx, memgov.Owner, q.MemoryRef, q.AfterKey, limit+1)
	} else {
		var ss host.ScopedSnapshot
		ss, err = s.eng.Host().Read(ctx, memgov.Owner, memgov.ReadQuery{MemoryRef: q.MemoryRef, AfterKey: q.AfterKey, Limit: limit + 1, AtLSN: q.At.LSN})
		snap = ss.Snapshot
	}
	if err != nil {
		return Page{}, err
	}
	p := Page{Versions: snap.Versions, LSN: snap.LSN, Time: snap.Time}
	if len(p.Versions) > limit {
		p.Versions, p.More = p.Versions[:limit], true
	}
	return p, nil
}

// Event is the log entry behind a step of a version's life.
type Event struct {
	LSN    int64
	Time   time.Time
	Op     oplog.Op
	Actor  string
	Reason string
	Leaf   string // hex of the entry's Merkle leaf
}

// VersionView is a version with the log entries that made, activated and
// ended it, and the evidence and provenance its write carried, if any.
type VersionView struct {
	memgov.Version
	Created   Event
	Activated *Event // set when it became ACTIVE later than it was written (an approval)
	Ended     *Event // set when it stopped being ACTIVE
	// Evidence and Provenance are "name: value" lines from the write's payload
	// data; untrusted agent text, to be sanitised before display.
	Evidence, Provenance []string
	// Links are the versions this one was kept beside as its own item
	// (NEAR_DUPLICATE, with the judge rule), as the actor may see them.
	Links []LinkView
}

// LinkView is a link of a version to a near version: the relation, rule
// and state the log recorded, and the linked version's number and text
// when the actor may read it (Seq 0 and no text otherwise, or once it is
// gone). Text is untrusted agent text, to be sanitised before display.
type LinkView struct {
	memgov.RelatedItem
	Seq int
}

// How says in a few words how the version came to be or stopped being, the
// way a curator asks it: "rolled back by ops-jane", "approved by demo-curator".
func (v VersionView) How() string {
	if v.Ended != nil {
		switch v.Ended.Op {
		case oplog.Retract:
			return "rolled back by " + v.Ended.Actor
		case oplog.Expire:
			if v.Ended.Actor != "" {
				return "expired by " + v.Ended.Actor
			}
			return "expired"
		}
	}
	if v.Activated != nil && v.Activated.Op == oplog.Approve {
		return "approved by " + v.Activated.Actor
	}
	r := v.Created.Reason
	switch {
	case strings.HasPrefix(r, "Restored v"):
		if i := strings.IndexByte(r, ':'); i > 0 {
			return strings.ToLower(r[:1]) + r[1:i] + " by " + v.Created.Actor
		}
	case strings.HasPrefix(r, "Reactivated after rollback"):
		return "reactivated by " + v.Created.Actor
	}
	by := ""
	if v.Created.Actor != v.CreatedBy {
		by = " by " + v.Created.Actor
	}
	switch v.Created.Op {
	case oplog.Merge:
		return "merged" + by
	case oplog.Stage:
		return "staged for review" + by
	case oplog.Insert:
		return "created" + by
	}
	return "updated" + by
}

// History is an item with every version, newest first.
type History struct {
	Item     memgov.Item
	Versions []VersionView
}

// History returns an item's versions with the log entries behind them.
func (s *Service) History(ctx context.Context, itemID string) (History, error) {
	item, vs, err := s.eng.Host().History(ctx, memgov.Owner, itemID)
	if err != nil {
		return History{}, err
	}
	if !s.sees(item.MemoryRef) {
		return History{}, &ForbiddenError{Msg: fmt.Sprintf("%s may not read tenant memory outside %s", s.actor.ID, s.actor.Tenant)}
	}
	lsns := make([]int64, 0, 3*len(vs))
	for _, v := range vs {
		lsns = append(lsns, v.CreatedLSN, v.ActiveFrom, v.ActiveTo)
	}
	entries, err := s.eng.Audit().LogEntriesAt(ctx, lsns...)
	if err != nil {
		return History{}, err
	}
	links, err := s.links(ctx, vs)
	if err != nil {
		return History{}, err
	}
	h := History{Item: item, Versions: make([]VersionView, len(vs))}
	for i, v := range vs {
		vv := VersionView{Version: v, Links: links[v.ID]}
		if le, ok := entries[v.CreatedLSN]; ok {
			vv.Created = event(le)
			vv.Evidence, vv.Provenance = provenance(le)
		}
		if le, ok := entries[v.ActiveFrom]; ok && v.ActiveFrom != v.CreatedLSN {
			ev := event(le)
			vv.Activated = &ev
		}
		if le, ok := entries[v.ActiveTo]; ok && v.ActiveTo > 0 {
			ev := event(le)
			vv.Ended = &ev
		}
		h.Versions[i] = vv
	}
	return h, nil
}

// links reads the links of vs as the actor may see them (a person memgov
// does not know reads the database file, and sees them all), with the
// linked version's number and text where the console shows its memoryRef.
func (s *Service) links(ctx context.Context, vs []memgov.Version) (map[string][]LinkView, error) {
	var links map[string][]memgov.RelatedItem
	var err error
	if authz.Known(s.actor) {
		links, err = s.eng.Host().Links(ctx, memgov.As(s.actor.ID), vs)
	} else {
		links, err = s.eng.Host().Links(ctx, memgov.Owner, vs)
	}
	if err != nil {
		return nil, err
	}
	out := make(map[string][]LinkView, len(links))
	for id, ls := range links {
		for _, l := range ls {
			lv := LinkView{RelatedItem: l}
			if l.State != "" {
				v, err := s.eng.Host().Version(ctx, memgov.Owner, l.VersionID)
				switch {
				case err == nil && s.sees(v.MemoryRef):
					lv.Seq, lv.Text = v.Seq, v.Text()
				case err != nil && !errors.Is(err, memgov.ErrNotFound):
					return nil, err
				}
			}
			out[id] = append(out[id], lv)
		}
	}
	return out, nil
}

func event(le oplog.Entry) Event {
	p, _ := le.DecodePayload()
	return Event{LSN: le.LSN, Time: le.Time, Op: le.Op, Actor: le.Actor, Reason: p.Reason, Leaf: fmt.Sprintf("%x", le.Leaf[:])}
}

// provenance extracts the evidence and provenance a write's payload data
// carries, as sorted "name: value" lines; absent fields give nil.
func provenance(le oplog.Entry) (evidence, prov []string) {
	p, err := le.DecodePayload()
	if err != nil || len(p.Data) == 0 {
		return nil, nil
	}
	var data map[string]json.RawMessage
	if json.Unmarshal(p.Data, &data) != nil {
		return nil, nil
	}
	return flatten(data["evidence"]), flatten(data["provenance"])
}

// flatten turns a JSON value into display lines: one line per array element,
// "k: v" pairs for objects.
func flatten(raw json.RawMessage) []string {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var arr []json.RawMessage
	if json.Unmarshal(raw, &arr) == nil {
		var out []string
		for _, el := range arr {
			out = append(out, strings.Join(pairs(el), "  "))
		}
		return out
	}
	return pairs(raw)
}

func pairs(raw json.RawMessage) []string {
	var obj map[string]any
	if json.Unmarshal(raw, &obj) != nil {
		var v any
		if json.Unmarshal(raw, &v) == nil {
			return []string{fmt.Sprint(v)}
		}
		return []string{string(raw)}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		v := obj[k]
		if b, err := json.Marshal(v); err == nil {
			switch x := v.(type) {
			case string:
				out = append(out, k+": "+x)
				continue
			case float64:
				out = append(out, k+": "+figure(x))
				continue
			}
			out = append(out, k+": "+string(b))
		}
	}
	return out
}

// figure writes a number for a person: at most three decimals, trailing
// zeros dropped (0.350482673 is 0.35, 0.95 stays 0.95, 12 stays 12).
func figure(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) >= 1e15 {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strconv.FormatFloat(math.Round(x*1000)/1000, 'f', -1, 64)
}

// RollbackKind names what "roll back to this version" does for a version.
type RollbackKind int

// Rollback kinds.
const (
	// CannotRollBack: the version can be neither retracted nor restored.
	CannotRollBack RollbackKind = iota
	// RetractActive: the selected version is the ACTIVE one; retract it and
	// reactivate its predecessor's content when there is one (spec §12.5.6).
	RetractActive
	// RestoreOlder: make the selected version's content ACTIVE again as a new
	// version, retracting the current ACTIVE version.
	RestoreOlder
)

// RollbackPlan says, before anyone confirms, what rolling back to a version
// will do.
type RollbackPlan struct {
	Kind    RollbackKind
	Version memgov.Version
	Summary string // one sentence for the confirmation
}

// PlanRollback describes rolling back to h.Versions[i].
func PlanRollback(h History, i int) RollbackPlan {
	if i < 0 || i >= len(h.Versions) {
		return RollbackPlan{Summary: "no version selected"}
	}
	v := h.Versions[i].Version
	head := headOf(h)
	plan := RollbackPlan{Version: v}
	switch {
	case v.State == memgov.Active:
		plan.Kind = RetractActive
		if pred, ok := versionByID(h, v.Prev); ok && pred.State == memgov.Superseded {
			plan.Summary = fmt.Sprintf("Retract v%d (ACTIVE) and reactivate the content of v%d as v%d.", v.Seq, pred.Seq, nextSeq(h))
		} else {
			plan.Summary = fmt.Sprintf("Retract v%d (ACTIVE); no earlier version is reactivated, so the item will have no visible content.", v.Seq)
		}
	case v.State == memgov.Draft || v.State == memgov.Quarantined:
		plan.Summary = fmt.Sprintf("v%d is %s and was never approved; it cannot be restored.", v.Seq, v.State)
	case len(v.Content) == 0:
		plan.Summary = fmt.Sprintf("v%d was erased; it cannot be restored.", v.Seq)
	default:
		plan.Kind = RestoreOlder
		if head != nil {
			plan.Summary = fmt.Sprintf("Make the content of v%d ACTIVE again as v%d; v%d (ACTIVE now) is retracted.", v.Seq, nextSeq(h), head.Seq)
		} else {
			plan.Summary = fmt.Sprintf("Make the content of v%d ACTIVE again as v%d (nothing is ACTIVE now).", v.Seq, nextSeq(h))
		}
	}
	return plan
}

func headOf(h History) *memgov.Version {
	for i := range h.Versions {
		if h.Versions[i].ID == h.Item.Head && h.Item.Head != "" {
			return &h.Versions[i].Version
		}
	}
	return nil
}

func versionByID(h History, id string) (memgov.Version, bool) {
	for _, v := range h.Versions {
		if v.ID == id && id != "" {
			return v.Version, true
		}
	}
	return memgov.Version{}, false
}

func nextSeq(h History) int {
	n := 0
	for _, v := range h.Versions {
		n = max(n, v.Seq)
	}
	return n + 1
}

// Rollback retracts the ACTIVE version versionID and reactivates the content
// of the version it superseded, if any (spec §12.5.6). Only curators and operators
// governing the version's tenant roll back, and every rollback needs a reason.
func (s *Service) Rollback(ctx context.Context, versionID, reason string) (memgov.RollbackResult, error) {
	if err := s.authorizeVersion(ctx, versionID, reason); err != nil {
		return memgov.RollbackResult{}, err
	}
	return s.eng.Lifecycle().Rollback(ctx, versionID, s.actor.ID, reason)
}

// RollBackTo carries out PlanRollback for the version: retract it when it is
// the ACTIVE one (Rollback), otherwise restore its content as the new ACTIVE
// version. The rules are Rollback's.
func (s *Service) RollBackTo(ctx context.Context, versionID, reason string) (memgov.RollbackResult, error) {
	if err := s.authorizeVersion(ctx, versionID, reason); err != nil {
		return memgov.RollbackResult{}, err
	}
	h, err := s.historyOfVersion(ctx, versionID)
	if err != nil {
		return memgov.RollbackResult{}, err
	}
	for i, v := range h.Versions {
		if v.ID != versionID {
			continue
		}
		switch plan := PlanRollback(h, i); plan.Kind {
		case RetractActive:
			return s.Rollback(ctx, versionID, reason)
		case RestoreOlder:
			return s.eng.Lifecycle().RestoreVersion(ctx, versionID, s.actor.ID, reason)
		default:
			return memgov.RollbackResult{}, fmt.Errorf("%w: %s", memgov.ErrConflict, plan.Summary)
		}
	}
	return memgov.RollbackResult{}, fmt.Errorf("%w: version %s", memgov.ErrNotFound, versionID)
}

// authorizeVersion checks that the actor may roll back versionID with reason.
func (s *Service) authorizeVersion(ctx context.Context, versionID, reason string) error {
	if err := s.CanAct(); err != nil {
		return err
	}
	if strings.TrimSpace(reason) == "" {
		return fmt.Errorf("%w: a rollback needs a reason", memgov.ErrInvalid)
	}
	v, err := s.eng.Host().Version(ctx, memgov.Owner, versionID)
	if err != nil {
		return err
	}
	return s.authorize(v.MemoryRef)
}

func (s *Service) historyOfVersion(ctx context.Context, versionID string) (History, error) {
	v, err := s.eng.Host().Version(ctx, memgov.Owner, versionID)
	if err != nil {
		return History{}, err
	}
	return s.History(ctx, v.ItemID)
}

// SetPinned pins or unpins an item: curators and operators governing its
// tenant. The reason is optional.
func (s *Service) SetPinned(ctx context.Context, itemID string, pin bool, reason string) (int64, error) {
	if err := s.authorizeItem(ctx, itemID); err != nil {
		return 0, err
	}
	if pin {
		return s.eng.Lifecycle().Pin(ctx, itemID, s.actor.ID, reason)
	}
	return s.eng.Lifecycle().Unpin(ctx, itemID, s.actor.ID, reason)
}

// ForceExpire expires an item's ACTIVE version now (a soft delete: its
// history stays). Curators and operators governing its tenant who hold the
// delete right on its layer expire, and every expiry needs a reason.
func (s *Service) ForceExpire(ctx context.Context, itemID, reason string) (int64, error) {
	if err := s.authorizeItem(ctx, itemID); err != nil {
		return 0, err
	}
	if strings.TrimSpace(reason) == "" {
		return 0, fmt.Errorf("%w: expiring an item by hand needs a reason", memgov.ErrInvalid)
	}
	return s.eng.Lifecycle().Expire(ctx, itemID, s.actor.ID, reason)
}

// Reclassify moves an item to another layer: curators and operators
// governing its tenant who hold the admin right on both layers, with a reason.
func (s *Service) Reclassify(ctx context.Context, itemID string, to memgov.Layer, reason string) (int64, error) {
	if err := s.authorizeItem(ctx, itemID); err != nil {
		return 0, err
	}
	if _, err := memgov.ParseLayer(string(to)); err != nil {
		return 0, fmt.Errorf("%w: layer %q: WORKING, SESSION, EPISODIC, SEMANTIC or PROCEDURAL", memgov.ErrInvalid, to)
	}
	if strings.TrimSpace(reason) == "" {
		return 0, fmt.Errorf("%w: moving an item to another layer needs a reason", memgov.ErrInvalid)
	}
	return s.eng.Lifecycle().Reclassify(ctx, itemID, to, s.actor.ID, reason)
}

// Annotate attaches a note of kind ("note", "curation", "validation") to an
// item. Unlike the other decisions it is open to every registered principal
// of the item's tenant that the RBAC matrix lets annotate (verifiers
// annotate, they do not write); a note is required.
func (s *Service) Annotate(ctx context.Context, itemID, kind, note string) (int64, error) {
	if !authz.Known(s.actor) {
		return 0, s.CanAct()
	}
	item, err := s.eng.Host().Item(ctx, memgov.Owner, itemID)
	if err != nil {
		return 0, err
	}
	if !authz.Governs(s.actor, mustTenant(item.MemoryRef)) {
		return 0, &ForbiddenError{Msg: fmt.Sprintf("rule CTI-1 (annotate): %s governs tenant %s and may not annotate memory of another tenant", s.actor.ID, s.actor.Tenant)}
	}
	if strings.TrimSpace(note) == "" {
		return 0, fmt.Errorf("%w: an annotation needs a note", memgov.ErrInvalid)
	}
	return s.eng.Lifecycle().Annotate(ctx, itemID, s.actor.ID, kind, note)
}

func mustTenant(ref string) string {
	r, err := scope.Parse(ref)
	if err != nil {
		return ""
	}
	return r.Tenant
}

// authorizeItem lets people of the item's tenant through to the engine,
// whose authority table (authz.Actions) then decides pin, unpin, expire and
// reclassify. The review service is the people's console: agents act through
// the engine's other doors.
func (s *Service) authorizeItem(ctx context.Context, itemID string) error {
	if err := s.CanAct(); err != nil {
		return err
	}
	item, err := s.eng.Host().Item(ctx, memgov.Owner, itemID)
	if err != nil {
		return err
	}
	return s.authorize(item.MemoryRef)
}

// IsForbidden reports whether err is a permission refusal.
func IsForbidden(err error) bool {
	return errors.Is(err, memgov.ErrForbidden) || errors.Is(err, memgov.ErrUnauthorized)
}
