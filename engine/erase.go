package engine

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
)

// EraseRequest asks for the erasure of a data subject (12.10.2).
type EraseRequest struct {
	// Subject is the subject's identifier as it appears in memory (a name,
	// an email address); Identifiers are further identifiers of the same
	// subject. All are matched case-insensitively (ASCII).
	Subject     string
	Identifiers []string
	By          string // a curator: erasure is a hard delete (12.8.2)
	Reason      string
	DryRun      bool
}

// EraseReport is what an erasure found and removed.
type EraseReport struct {
	RequestID   string         `json:"request_id"`
	SubjectHash string         `json:"subject_hash"`
	Status      string         `json:"status"` // COMPLETED, DRY_RUN, NOTHING_FOUND
	DryRun      bool           `json:"dry_run"`
	Direct      []string       `json:"direct_items"`
	Derived     []string       `json:"derived_items"`
	Items       int            `json:"items"`
	ByLayer     map[string]int `json:"by_layer"`
	Payloads    int            `json:"payloads_erased"`
	Unresolved  int            `json:"unresolved_entries"` // non-item log entries naming the subject (left in place)
	LSN         int64          `json:"lsn,omitempty"`
	RequestedAt time.Time      `json:"requested_at"`
	CompletedAt time.Time      `json:"completed_at"`
}

// SubjectHash is the salted SHA-256 of a subject recorded by erasures: the salt
// is derived from the log key, so the hash confirms nothing without it.
func (e *Engine) SubjectHash(subject string) string {
	m := hmac.New(sha256.New, e.key)
	m.Write([]byte("memgov-erasure-salt\x00"))
	h := sha256.New()
	h.Write(m.Sum(nil))
	h.Write([]byte(strings.ToLower(strings.TrimSpace(subject))))
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// Erase executes the right to erasure (12.10.2): it finds every item whose key,
// content or log payloads contain the subject's identifiers, follows derivation
// edges (merges, MEMORY_ITEM citations: promotions, distillations,
// consolidations) to the transitive closure, expires what is ACTIVE, rejects
// what awaits review, and removes every payload, content, embedding and
// fingerprint of those items in one transaction ending in an ERASE entry. The
// log keeps its hashes, so the Merkle log still verifies. Afterwards the store
// rewrites its file and truncates its WAL so the text is nowhere on disk.
func (e *Engine) Erase(ctx context.Context, r EraseRequest) (EraseReport, error) {
	rep := EraseReport{RequestID: NewID(), SubjectHash: e.SubjectHash(r.Subject), DryRun: r.DryRun, ByLayer: map[string]int{}, RequestedAt: e.Now()}
	needles := []string{}
	for _, s := range append([]string{r.Subject}, r.Identifiers...) {
		if s = strings.TrimSpace(s); len(s) >= 3 {
			needles = append(needles, s)
			if b, err := jsonText(s); err == nil && b != s {
				needles = append(needles, b)
			}
		}
	}
	if len(needles) == 0 {
		return rep, fmt.Errorf("%w: erasure needs a subject identifier of at least 3 characters", ErrInvalid)
	}
	err := e.store.Update(ctx, func(tx Tx) error {
		who, err := tx.Principal(ctx, r.By)
		if err != nil {
			return fmt.Errorf("%w: unknown principal %q", ErrUnauthorized, r.By)
		}
		if !r.DryRun {
			if err := tx.SecureDelete(ctx); err != nil {
				return err
			}
		}
		direct, unresolved, err := tx.EraseMatches(ctx, needles)
		if err != nil {
			return err
		}
		rep.Unresolved = unresolved
		set := map[string]bool{}
		for _, id := range direct {
			set[id] = true
		}
		frontier := direct
		for len(frontier) > 0 {
			more, err := tx.DerivedItems(ctx, frontier)
			if err != nil {
				return err
			}
			frontier = nil
			for _, id := range more {
				if !set[id] {
					set[id] = true
					frontier = append(frontier, id)
					rep.Derived = append(rep.Derived, id)
				}
			}
		}
		rep.Direct = direct
		items := make([]string, 0, len(set))
		for id := range set {
			item, err := tx.Item(ctx, id)
			if err != nil {
				return err
			}
			if !who.Governs(tenantOf(item.MemoryRef)) || !e.policy.Allowed(string(who.Role), string(item.Layer), policy.OpHardDelete) {
				return fmt.Errorf("%w: %s (%s) may not erase %s memory of %s; only curators hard-delete (12.8.2)", ErrForbidden, who.ID, who.Role, item.Layer, item.MemoryRef)
			}
			items = append(items, id)
		}
		sort.Strings(items)
		rep.Items = len(items)
		if len(items) == 0 {
			rep.Status = "NOTHING_FOUND"
			return nil
		}
		if r.DryRun {
			for _, id := range items {
				item, _ := tx.Item(ctx, id)
				rep.ByLayer[string(item.Layer)]++
			}
			rep.Status = "DRY_RUN"
			return nil
		}
		row, err := e.purge(ctx, tx, r.By, EraseSubject, rep.RequestID, rep.SubjectHash, items, rep.RequestedAt)
		if err != nil {
			return err
		}
		rep.ByLayer, rep.Payloads, rep.LSN, rep.Status = row.ByLayer, row.Payloads, row.LSN, "COMPLETED"
		return nil
	})
	if err != nil {
		return rep, err
	}
	if rep.Status == "COMPLETED" {
		if err := e.store.Compact(ctx); err != nil {
			return rep, err
		}
	}
	rep.CompletedAt = e.Now()
	sort.Strings(rep.Direct)
	sort.Strings(rep.Derived)
	return rep, nil
}

func jsonText(s string) (string, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return "", err
	}
	out := strings.TrimSpace(b.String())
	return out[1 : len(out)-1], nil
}

func tenantOf(ref string) string {
	t, _, _ := strings.Cut(ref, "/")
	return t
}

// purge ends every live version of items (EXPIRE for ACTIVE, REJECT for a
// DRAFT awaiting review) and appends the ERASE entry that removes their
// payloads. Used by erasure, GC hard deletes and retention hard deletes.
func (e *Engine) purge(ctx context.Context, tx Tx, actor, kind, requestID, subjectHash string, items []string, requestedAt time.Time) (ErasureRow, error) {
	row := ErasureRow{Kind: kind, RequestID: requestID, ByLayer: map[string]int{}}
	now := e.Now()
	for _, id := range items {
		item, err := tx.Item(ctx, id)
		if err != nil {
			return row, err
		}
		row.ByLayer[string(item.Layer)]++
		vs, err := tx.History(ctx, id)
		if err != nil {
			return row, err
		}
		for _, v := range vs {
			var entry *LogEntry
			var p Payload
			switch v.State {
			case Active:
				entry = &LogEntry{Time: now, Op: OpExpire, MemoryRef: item.MemoryRef, ItemID: id, VersionID: v.ID, PrevVersionID: v.Prev, Actor: actor}
				p = Payload{Reason: "erased (" + kind + ")"}
			case Draft:
				rid, err := tx.OpenReviewOf(ctx, v.ID)
				if err != nil {
					return row, err
				}
				entry = &LogEntry{Time: now, Op: OpReject, MemoryRef: item.MemoryRef, ItemID: id, VersionID: v.ID, PrevVersionID: v.Prev, Actor: actor}
				data, _ := json.Marshal(oplog.VersionData{Decision: &oplog.DecisionData{ReviewID: rid, Code: "ERASED"}})
				p = Payload{Reason: "erased (" + kind + ")", Data: data}
			default:
				continue
			}
			if err := entry.Seal(p); err != nil {
				return row, err
			}
			if err := tx.Append(ctx, entry); err != nil {
				return row, err
			}
		}
	}
	lsns, err := tx.ItemEntries(ctx, items)
	if err != nil {
		return row, err
	}
	// The skeleton each payload leaves for replay is bound by its hash.
	skeletons := map[string]string{}
	for _, lsn := range lsns {
		if err := tx.LogRange(ctx, lsn, lsn, func(en *LogEntry) error {
			if len(en.Payload) == 0 {
				return nil // erased before: its skeleton is bound already
			}
			sk, err := oplog.ErasedSkeleton(en.ItemID, en.Payload)
			if err != nil {
				return err
			}
			skeletons[strconv.FormatInt(lsn, 10)] = oplog.HashPayload(sk)
			return nil
		}); err != nil {
			return row, err
		}
	}
	rec := oplog.ErasureData{Kind: kind, RequestID: requestID, SubjectHash: subjectHash, RequestedAt: requestedAt.Format(time.RFC3339Nano),
		Items: items, LSNs: lsns, ByLayer: row.ByLayer, Skeletons: skeletons}
	data, err := json.Marshal(rec)
	if err != nil {
		return row, err
	}
	entry := &LogEntry{Time: now, Op: OpErase, Actor: actor}
	if err := entry.Seal(Payload{Reason: kind, Data: data}); err != nil {
		return row, err
	}
	if err := tx.Append(ctx, entry); err != nil {
		return row, err
	}
	row.LSN, row.Payloads, row.Items = entry.LSN, len(lsns), len(items)
	return row, nil
}
