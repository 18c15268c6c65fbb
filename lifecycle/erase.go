package lifecycle

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/oplog"
)

// subjectHash is the salted SHA-256 of a subject recorded by erasures: the salt
// is derived from the log key, so the hash confirms nothing without it.
func (s *Service) subjectHash(subject string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte("memgov-erasure-salt\x00"))
	h := sha256.New()
	h.Write(m.Sum(nil))
	h.Write([]byte(strings.ToLower(strings.TrimSpace(subject))))
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// Erase executes the right to erasure (spec §12.10.2): it finds every item whose key,
// content or log payloads contain the subject's identifiers, follows derivation
// edges (merges, MEMORY_ITEM citations: promotions, distillations,
// consolidations) to the transitive closure, expires what is ACTIVE, rejects
// what awaits review, and removes every payload, content, embedding and
// fingerprint of those items in one transaction ending in an ERASE entry. The
// log keeps its hashes, so the Merkle log still verifies. Afterwards the store
// rewrites its file and truncates its WAL so the text is nowhere on disk.
func (s *Service) Erase(ctx context.Context, r memgov.EraseRequest) (memgov.EraseReport, error) {
	rep := memgov.EraseReport{RequestID: oplog.NewID(), SubjectHash: s.subjectHash(r.Subject), DryRun: r.DryRun, ByLayer: map[string]int{}, RequestedAt: s.now()}
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
		return rep, fmt.Errorf("%w: erasure needs a subject identifier of at least 3 characters", memgov.ErrInvalid)
	}
	err := s.store.Update(ctx, func(tx memgov.Tx) error {
		who, err := tx.Principal(ctx, r.By)
		if err != nil {
			return fmt.Errorf("%w: unknown principal %q", memgov.ErrUnauthorized, r.By)
		}
		if err := authz.WhoMay(who, authz.ActErase); err != nil {
			return err
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
		// A proposal's entries name the proposal (a principal's, the
		// principal) where an item's name the item: a record that is not a
		// memory item is left in place and reported.
		proposals := 0
		kept := direct[:0]
		for _, id := range direct {
			if _, err := tx.Item(ctx, id); isNotFound(err) {
				proposals++
				continue
			} else if err != nil {
				return err
			}
			kept = append(kept, id)
		}
		direct = kept
		if proposals > 0 {
			rep.Unresolved += proposals
			rep.Left = append(rep.Left, fmt.Sprintf("%d record(s) naming the subject that are not memory items (proposals, principals): kept as they are; reject or archive such proposals", proposals))
			rep.NextActions = append(rep.NextActions, memgov.NextRejectProposal)
		}
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
		// An erasure reaches the tenants its curator governs, and says
		// nothing of the others: not their items, not that they exist.
		items := make([]string, 0, len(set))
		inRef, inKey := 0, 0
		for id := range set {
			item, err := tx.Item(ctx, id)
			if err != nil {
				return err
			}
			if !authz.Governs(who, tenantOf(item.MemoryRef)) {
				delete(set, id)
				continue
			}
			if err := s.authz.Permit(who, authz.ActErase, authz.Target{Ref: item.MemoryRef, Layer: item.Layer}); err != nil {
				return err
			}
			if containsAny(item.MemoryRef, needles) {
				inRef++
			}
			if containsAny(item.Key, needles) {
				inKey++
			}
			items = append(items, id)
		}
		rep.Direct = slices.DeleteFunc(rep.Direct, func(id string) bool { return !set[id] })
		rep.Derived = slices.DeleteFunc(rep.Derived, func(id string) bool { return !set[id] })
		if inRef > 0 {
			rep.Left = append(rep.Left, fmt.Sprintf("the memoryRef of %d item(s): log, items, versions, events and indexes keep it (the log's chain covers it)", inRef))
		}
		if inKey > 0 {
			rep.Left = append(rep.Left, fmt.Sprintf("the key of %d item(s): log, items, versions, events and indexes keep it (the log's chain covers it)", inKey))
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
		row, err := s.purgeLeaving(ctx, tx, r.By, memgov.EraseSubject, rep.RequestID, rep.SubjectHash, items, rep.RequestedAt, rep.Left)
		if err != nil {
			return err
		}
		rep.ByLayer, rep.Payloads, rep.LSN, rep.Status = row.ByLayer, row.Payloads, row.LSN, "COMPLETED"
		if len(rep.Left) > 0 {
			rep.Status = "INCOMPLETE"
		}
		return nil
	})
	if err != nil {
		return rep, err
	}
	if rep.Status == "COMPLETED" || rep.Status == "INCOMPLETE" {
		// The engine's judge forgets the words it read of the erased texts.
		s.rules.Forget()
		s.search.Forget()
		if err := s.store.Compact(ctx); err != nil {
			return rep, err
		}
	}
	rep.CompletedAt = s.now()
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

// purge ends every live version of items (EXPIRE for ACTIVE, REJECT for a
// DRAFT awaiting review) and appends the ERASE entry that removes their
// payloads. Used by erasure, GC hard deletes and retention hard deletes.
func (s *Service) purge(ctx context.Context, tx memgov.Tx, actor, kind, requestID, subjectHash string, items []string, requestedAt time.Time) (memgov.ErasureRow, error) {
	return s.purgeLeaving(ctx, tx, actor, kind, requestID, subjectHash, items, requestedAt, nil)
}

// purgeLeaving is purge recording the places the erasure could not reach.
func (s *Service) purgeLeaving(ctx context.Context, tx memgov.Tx, actor, kind, requestID, subjectHash string, items []string, requestedAt time.Time, left []string) (memgov.ErasureRow, error) {
	row := memgov.ErasureRow{Kind: kind, RequestID: requestID, ByLayer: map[string]int{}}
	now := s.now()
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
			var entry *oplog.Entry
			var p oplog.Payload
			switch v.State {
			case memgov.Active:
				entry = &oplog.Entry{Time: now, Op: oplog.Expire, MemoryRef: item.MemoryRef, ItemID: id, VersionID: v.ID, PrevVersionID: v.Prev, Actor: actor}
				p = oplog.Payload{Reason: "erased (" + kind + ")"}
			case memgov.Draft:
				rid, err := tx.OpenReviewOf(ctx, v.ID)
				if err != nil {
					return row, err
				}
				entry = &oplog.Entry{Time: now, Op: oplog.Reject, MemoryRef: item.MemoryRef, ItemID: id, VersionID: v.ID, PrevVersionID: v.Prev, Actor: actor}
				data, _ := json.Marshal(oplog.VersionData{Decision: &oplog.DecisionData{ReviewID: rid, Code: "ERASED"}})
				p = oplog.Payload{Reason: "erased (" + kind + ")", Data: data}
			default:
				continue
			}
			if err := oplog.Append(ctx, tx, entry, p); err != nil {
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
		if err := tx.LogRange(ctx, lsn, lsn, func(en *oplog.Entry) error {
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
		Items: items, LSNs: lsns, ByLayer: row.ByLayer, Left: left, Skeletons: skeletons}
	data, err := json.Marshal(rec)
	if err != nil {
		return row, err
	}
	entry := &oplog.Entry{Time: now, Op: oplog.Erase, Actor: actor}
	if err := oplog.Append(ctx, tx, entry, oplog.Payload{Reason: kind, Data: data}); err != nil {
		return row, err
	}
	row.LSN, row.Payloads, row.Items = entry.LSN, len(lsns), len(items)
	return row, nil
}

// containsAny reports whether s contains one of needles, ignoring ASCII case.
func containsAny(s string, needles []string) bool {
	ls := strings.ToLower(s)
	for _, n := range needles {
		if strings.Contains(ls, strings.ToLower(n)) {
			return true
		}
	}
	return false
}
