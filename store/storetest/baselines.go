package storetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/merkle"
)

var baselineTests = []test{
	{"NothingRecorded", testBaselineEmpty},
	{"OpLogAndMaps", testOpLogAndMaps},
	{"BaselinesCheckpointsAndCache", testBaselines},
	{"DriftEpisodes", testDrift},
	{"Sessions", testSessions},
}

// A memoryRef without memory has a zero op-log head and nothing else.
func testBaselineEmpty(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	const nobody = "acme/nobody"
	fx.view(func(tx memgov.ReadTx) error {
		for what, err := range map[string]error{
			"Baseline":         second(tx.Baseline(fx.ctx, nobody)),
			"BaselineByID":     second(tx.BaselineByID(fx.ctx, "no-such-baseline")),
			"LatestCheckpoint": second(tx.LatestCheckpoint(fx.ctx, nobody)),
			"OpenDrift":        second(tx.OpenDrift(fx.ctx, nobody)),
			"DriftEvent":       second(tx.DriftEvent(fx.ctx, "no-such-drift")),
			"OpenSession":      second(tx.OpenSession(fx.ctx, nobody)),
		} {
			if !errors.Is(err, memgov.ErrNotFound) {
				t.Errorf("%s of nothing: %v, want ErrNotFound", what, err)
			}
		}
		h, err := tx.MemHead(fx.ctx, nobody)
		if err != nil || h.MemoryRef != nobody || h.TreeSize != 0 || h.Root != merkle.EmptyRoot() || h.LastVerdict != "" {
			t.Errorf("MemHead of nothing = %+v, %v; want the zero head", h, err)
		}
		var f merkle.Frontier
		if empty, _ := f.MarshalBinary(); !bytes.Equal(h.Frontier, empty) {
			t.Errorf("MemHead of nothing has frontier %x, want the empty frontier %x", h.Frontier, empty)
		}
		rows := 0
		count := func(memgov.MapRow) error { rows++; return nil }
		if err := tx.MemoryMap(fx.ctx, nobody, fx.c.Now(), count); err != nil {
			return err
		}
		if err := tx.FoldMap(fx.ctx, nobody, 10, fx.c.Now(), count); err != nil {
			return err
		}
		if err := tx.MemOps(fx.ctx, nobody, 0, 10, func(memgov.MemOp) error { rows++; return nil }); err != nil {
			return err
		}
		if rows != 0 {
			t.Errorf("%d rows of a ref without memory", rows)
		}
		if d, err := tx.Dirty(fx.ctx, nobody); err != nil || d {
			t.Errorf("Dirty = %v, %v", d, err)
		}
		if c, found, err := tx.StateCache(fx.ctx, nobody); err != nil || found {
			t.Errorf("StateCache = %+v, %v, %v; want none", c, found, err)
		}
		if ds, err := tx.DriftEvents(fx.ctx, memgov.DriftQuery{}); err != nil || len(ds) != 0 {
			t.Errorf("DriftEvents = %v, %v; want none", ds, err)
		}
		return nil
	})
}

// mapOf collects streamed map rows as key=value lines, in stream order.
func mapOf(t *testing.T, scan func(func(memgov.MapRow) error) error) []string {
	t.Helper()
	var out []string
	if err := scan(func(r memgov.MapRow) error {
		exp := ""
		if r.ExpiresAt != nil {
			exp = " until " + r.ExpiresAt.UTC().Format(time.RFC3339)
		}
		out = append(out, r.Key+"="+string(r.Value)+exp)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func canonText(t *testing.T, s string) string {
	t.Helper()
	b, err := canon.Marshal(map[string]string{"text": s})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func sameLines(a, b []string) bool {
	return strings.Join(a, "\n") == strings.Join(b, "\n")
}

// The op log records a PUT for every ACTIVE version set and a DEL for every
// key that lost its ACTIVE version; MemoryMap and FoldMap stream the maps.
func testOpLogAndMaps(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	fx.put(ref, "a", "one")
	b := fx.put(ref, "Z", "zed")
	fx.put(ref, "a", "two")
	if _, err := fx.e.Rollback(fx.ctx, b.VersionID, curator, "wrong"); err != nil {
		t.Fatal(err)
	}
	now := fx.c.Now()
	fx.put(ref, "t", "temporary", func(p *memgov.PutRequest) { p.TTL = time.Hour; p.Layer = memgov.Working })
	expiry := now.Add(time.Hour).UTC().Format(time.RFC3339)
	log := fx.entries()
	fx.view(func(tx memgov.ReadTx) error {
		head, err := tx.MemHead(fx.ctx, ref)
		if err != nil || head.TreeSize != 5 || head.MemoryRef != ref {
			t.Fatalf("MemHead = %+v, %v; want 5 operations", head, err)
		}
		var ops []memgov.MemOp
		if err := tx.MemOps(fx.ctx, ref, 0, head.TreeSize, func(o memgov.MemOp) error {
			o.Value = bytes.Clone(o.Value)
			ops = append(ops, o)
			return nil
		}); err != nil {
			return err
		}
		want := []struct{ key, op, value string }{
			{"a", merkle.OpPut, canonText(t, "one")}, {"Z", merkle.OpPut, canonText(t, "zed")}, {"a", merkle.OpPut, canonText(t, "two")},
			{"Z", merkle.OpDel, ""}, {"t", merkle.OpPut, canonText(t, "temporary")},
		}
		if len(ops) != len(want) {
			t.Fatalf("MemOps = %d operations, want %d", len(ops), len(want))
		}
		leaves := make([]merkle.Hash, len(ops))
		for i, o := range ops {
			if o.Index != uint64(i) || o.Key != want[i].key || o.Op != want[i].op || string(o.Value) != want[i].value {
				t.Errorf("op %d = %d %s %s %s, want %s %s %s", i, o.Index, o.Op, o.Key, o.Value, want[i].op, want[i].key, want[i].value)
			}
			if o.LSN < 1 || o.LSN > int64(len(log)) || log[o.LSN-1].MemoryRef != ref || i > 0 && o.LSN <= ops[i-1].LSN {
				t.Errorf("op %d names log entry %d", i, o.LSN)
			}
			leaves[i] = o.Leaf
		}
		if head.Root != merkle.Root(leaves) {
			t.Errorf("MemHead root %v is not the Merkle root of the operations' leaves", head.Root)
		}
		var sub []uint64
		if err := tx.MemOps(fx.ctx, ref, 1, 3, func(o memgov.MemOp) error { sub = append(sub, o.Index); return nil }); err != nil || len(sub) != 2 || sub[0] != 1 || sub[1] != 2 {
			t.Errorf("MemOps(1, 3) = %v, %v; want [1 2]", sub, err)
		}
		stop := errors.New("stop")
		if err := tx.MemOps(fx.ctx, ref, 0, 5, func(memgov.MemOp) error { return stop }); !errors.Is(err, stop) {
			t.Errorf("MemOps must return fn's error: %v", err)
		}
		at := func(now time.Time) func(func(memgov.MapRow) error) error {
			return func(fn func(memgov.MapRow) error) error { return tx.MemoryMap(fx.ctx, ref, now, fn) }
		}
		fold := func(size uint64, now time.Time) func(func(memgov.MapRow) error) error {
			return func(fn func(memgov.MapRow) error) error { return tx.FoldMap(fx.ctx, ref, size, now, fn) }
		}
		current := []string{"a=" + canonText(t, "two"), "t=" + canonText(t, "temporary") + " until " + expiry}
		if got := mapOf(t, at(now)); !sameLines(got, current) {
			t.Errorf("MemoryMap = %v, want %v", got, current)
		}
		later := current[:1]
		if got := mapOf(t, at(now.Add(2*time.Hour))); !sameLines(got, later) {
			t.Errorf("MemoryMap after the expiry = %v, want %v", got, later)
		}
		for _, c := range []struct {
			size uint64
			now  time.Time
			want []string
		}{
			{0, now, nil},
			{1, now, []string{"a=" + canonText(t, "one")}},
			{2, now, []string{"Z=" + canonText(t, "zed"), "a=" + canonText(t, "one")}},
			{3, now, []string{"Z=" + canonText(t, "zed"), "a=" + canonText(t, "two")}},
			{4, now, []string{"a=" + canonText(t, "two")}},
			{5, now, current},
			{50, now, current},
			{5, now.Add(2 * time.Hour), later},
		} {
			if got := mapOf(t, fold(c.size, c.now)); !sameLines(got, c.want) {
				t.Errorf("FoldMap(%d) = %v, want %v", c.size, got, c.want)
			}
		}
		return nil
	})
}

func approve(t *testing.T, fx *fixture, ref string, typ memgov.MemoryType) memgov.Baseline {
	t.Helper()
	b, err := fx.e.ApproveBaseline(fx.ctx, memgov.ApproveRequest{MemoryRef: ref, By: operator, MemoryType: typ, TTLSeconds: 86400,
		DriftPolicy: "alert-on-drift", Level: 1, Reason: "conformance"})
	if err != nil {
		t.Fatal(err)
	}
	fx.c.Advance(time.Second)
	return b
}

// Baselines, op-log checkpoints and the snapshot-hash cache.
func testBaselines(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	fx.put(ref, "a", "one")
	fx.put(ref, "b", "two")
	b1 := approve(t, fx, ref, memgov.MemoryPersistent)
	fx.put(ref, "c", "three")
	b2 := approve(t, fx, ref, memgov.MemoryPersistent)
	fx.view(func(tx memgov.ReadTx) error {
		got, err := tx.Baseline(fx.ctx, ref)
		if err != nil || got.ID != b2.ID {
			t.Fatalf("Baseline = %+v, %v; want the latest, %s", got, err, b2.ID)
		}
		for _, want := range []memgov.Baseline{b1, b2} {
			got, err := tx.BaselineByID(fx.ctx, want.ID)
			if err != nil {
				return err
			}
			if got.ID != want.ID || got.MemoryRef != ref || got.Hash() != want.Hash() || got.Hash() == "" || got.MemoryType != memgov.MemoryPersistent ||
				got.ApprovedBy != operator || got.DriftPolicy != "alert-on-drift" || got.TTLSeconds != 86400 || got.LSN != want.LSN ||
				got.LogPosition != want.LogPosition || got.BaseTreeSize != want.BaseTreeSize || got.BaseSeq != want.BaseSeq || !got.ApprovedAt.Equal(want.ApprovedAt) {
				t.Errorf("BaselineByID = %+v, want %+v", got, want)
			}
		}
		if b1.BaseTreeSize != 2 || b2.BaseTreeSize != 3 {
			t.Errorf("baselines bound op logs of %d and %d operations, want 2 and 3", b1.BaseTreeSize, b2.BaseTreeSize)
		}
		cp, err := tx.LatestCheckpoint(fx.ctx, ref)
		if err != nil {
			return err
		}
		head, err := tx.MemHead(fx.ctx, ref)
		if err != nil {
			return err
		}
		if cp.MemoryRef != ref || cp.BaselineID != b2.ID || cp.TreeSize != 3 || cp.Root != head.Root || cp.Seq != b2.BaseSeq || cp.Seq < 2 || cp.LSN != b2.LSN {
			t.Errorf("LatestCheckpoint = %+v, head %+v, baseline %+v", cp, head, b2)
		}
		// Approving cached the snapshot hash.
		c, found, err := tx.StateCache(fx.ctx, ref)
		if err != nil || !found || c.Hash != b2.Hash() || c.TreeSize != 3 || c.Items != 3 || c.MemoryRef != ref {
			t.Errorf("StateCache after approval = %+v, %v, %v; want hash %s", c, found, err, b2.Hash())
		}
		if d, err := tx.Dirty(fx.ctx, ref); err != nil || d {
			t.Errorf("Dirty after governed writes = %v, %v", d, err)
		}
		return nil
	})
	next := fx.c.Now().Add(time.Hour)
	want := memgov.StateCache{MemoryRef: ref, Alg: canon.SHA256, TreeSize: 7, Hash: "sha256:" + strings.Repeat("ab", 32), NextExpiry: &next, Items: 4, Bytes: 321}
	fx.update(func(tx memgov.Tx) error {
		if err := tx.PutStateCache(fx.ctx, want); err != nil {
			return err
		}
		return tx.ClearDirty(fx.ctx, ref)
	})
	fx.view(func(tx memgov.ReadTx) error {
		c, found, err := tx.StateCache(fx.ctx, ref)
		if err != nil || !found || c.MemoryRef != want.MemoryRef || c.Alg != want.Alg || c.TreeSize != want.TreeSize || c.Hash != want.Hash ||
			c.NextExpiry == nil || !c.NextExpiry.Equal(next) || c.Items != want.Items || c.Bytes != want.Bytes {
			t.Errorf("StateCache = %+v, %v, %v; want %+v", c, found, err, want)
		}
		if d, err := tx.Dirty(fx.ctx, ref); err != nil || d {
			t.Errorf("Dirty after ClearDirty = %v, %v", d, err)
		}
		return nil
	})
	want.NextExpiry, want.Alg, want.Hash = nil, canon.SHAKE256, "shake256:"+strings.Repeat("cd", 32)
	fx.update(func(tx memgov.Tx) error { return tx.PutStateCache(fx.ctx, want) })
	fx.view(func(tx memgov.ReadTx) error {
		c, found, err := tx.StateCache(fx.ctx, ref)
		if err != nil || !found || c.NextExpiry != nil || c.Alg != canon.SHAKE256 || c.Hash != want.Hash {
			t.Errorf("replaced StateCache = %+v, %v, %v; want %+v", c, found, err, want)
		}
		return nil
	})
}

// Drift episodes: detected, looked up by id and prefix, listed, acknowledged.
func testDrift(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	fx.put(ref, "a", "one")
	b := approve(t, fx, ref, memgov.MemoryPersistent)
	other, _ := json.Marshal(map[string]any{"a": map[string]string{"text": "not what was approved"}})
	detect := func() memgov.VerifyResult {
		t.Helper()
		r, err := fx.e.VerifyMemory(fx.ctx, memgov.VerifyRequest{MemoryRef: ref, State: other})
		if err != nil || !r.Drift || r.DriftID == "" {
			t.Fatalf("verify = %+v, %v; want a drift", r, err)
		}
		fx.c.Advance(time.Second)
		return r
	}
	r1 := detect()
	fx.view(func(tx memgov.ReadTx) error {
		open, err := tx.OpenDrift(fx.ctx, ref)
		if err != nil {
			return err
		}
		if open.ID != r1.DriftID || open.MemoryRef != ref || open.BaselineID != b.ID || open.Cause != memgov.CauseStateMismatch ||
			open.Event != merkle.EventMemoryDrift || open.LSN < 1 || open.AckedAt != nil || open.DetectedAt.IsZero() || open.ApprovedHash != b.Hash() {
			t.Errorf("OpenDrift = %+v", open)
		}
		for _, id := range []string{open.ID, open.ID[:8]} {
			if got, err := tx.DriftEvent(fx.ctx, id); err != nil || got.ID != open.ID || got.LSN != open.LSN {
				t.Errorf("DriftEvent(%s) = %+v, %v", id, got, err)
			}
		}
		if _, err := tx.DriftEvent(fx.ctx, "zzzzzzzz"); !errors.Is(err, memgov.ErrNotFound) {
			t.Errorf("DriftEvent of an unknown prefix: %v, want ErrNotFound", err)
		}
		for what, c := range map[string]struct {
			q    memgov.DriftQuery
			want int
		}{"of the ref": {memgov.DriftQuery{MemoryRef: ref}, 1}, "open": {memgov.DriftQuery{OpenOnly: true}, 1},
			"of another ref": {memgov.DriftQuery{MemoryRef: "acme/nobody"}, 0}} {
			if ds, err := tx.DriftEvents(fx.ctx, c.q); err != nil || len(ds) != c.want {
				t.Errorf("DriftEvents %s = %d, %v; want %d", what, len(ds), err, c.want)
			}
		}
		return nil
	})
	if _, err := fx.e.AckDrift(fx.ctx, memgov.AckRequest{DriftID: r1.DriftID, By: operator, Resolution: memgov.ResolveReapprove, Note: "intended"}); err != nil {
		t.Fatal(err)
	}
	fx.c.Advance(time.Second)
	r2 := detect()
	fx.view(func(tx memgov.ReadTx) error {
		ds, err := tx.DriftEvents(fx.ctx, memgov.DriftQuery{MemoryRef: ref})
		if err != nil || len(ds) != 2 || ds[0].ID != r2.DriftID || ds[1].ID != r1.DriftID || ds[0].LSN <= ds[1].LSN {
			t.Fatalf("DriftEvents = %+v, %v; want the two episodes, newest first", ds, err)
		}
		acked := ds[1]
		// Drift ids are the engine's time-ordered UUIDs: two episodes a second
		// apart share a prefix, which names neither.
		common := 0
		for common < len(r1.DriftID) && common < len(r2.DriftID) && r1.DriftID[common] == r2.DriftID[common] {
			common++
		}
		if common < 4 {
			t.Fatalf("drift ids %s and %s share no 4-character prefix", r1.DriftID, r2.DriftID)
		}
		if _, err := tx.DriftEvent(fx.ctx, r1.DriftID[:common]); !errors.Is(err, memgov.ErrInvalid) {
			t.Errorf("DriftEvent of a prefix of two ids: %v, want ErrInvalid", err)
		}
		if got, err := tx.DriftEvent(fx.ctx, r2.DriftID[:common+1]); err != nil || got.ID != r2.DriftID {
			t.Errorf("DriftEvent of a longer, unique prefix = %+v, %v", got, err)
		}
		if acked.AckedAt == nil || acked.AckedBy != operator || acked.Resolution != memgov.ResolveReapprove || acked.Note != "intended" || acked.AckLSN <= acked.LSN {
			t.Errorf("acknowledged episode = %+v", acked)
		}
		if open, err := tx.DriftEvents(fx.ctx, memgov.DriftQuery{OpenOnly: true}); err != nil || len(open) != 1 || open[0].ID != r2.DriftID {
			t.Errorf("open episodes = %+v, %v; want the second", open, err)
		}
		if one, err := tx.DriftEvents(fx.ctx, memgov.DriftQuery{Limit: 1}); err != nil || len(one) != 1 || one[0].ID != r2.DriftID {
			t.Errorf("DriftEvents(limit 1) = %+v, %v", one, err)
		}
		if open, err := tx.OpenDrift(fx.ctx, ref); err != nil || open.ID != r2.DriftID {
			t.Errorf("OpenDrift = %+v, %v; want the second episode", open, err)
		}
		return nil
	})
}

// OpenSession returns the session between its start and its end.
func testSessions(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	const chat = "acme/chat-agent"
	fx.put(chat, "greeting", "hello")
	approve(t, fx, chat, memgov.MemorySession)
	s1, _, err := fx.e.StartSession(fx.ctx, chat, executor)
	if err != nil {
		t.Fatal(err)
	}
	fx.view(func(tx memgov.ReadTx) error {
		s, err := tx.OpenSession(fx.ctx, chat)
		if err != nil || s.ID != s1.ID || s.ID == "" || s.MemoryRef != chat || s.StartedBy != executor || s.StartLSN < 1 || s.StartedAt.IsZero() || s.EndedAt != nil {
			t.Errorf("OpenSession = %+v, %v; want %+v", s, err, s1)
		}
		return nil
	})
	if _, err := fx.e.EndSession(fx.ctx, chat, executor); err != nil {
		t.Fatal(err)
	}
	fx.view(func(tx memgov.ReadTx) error {
		if s, err := tx.OpenSession(fx.ctx, chat); !errors.Is(err, memgov.ErrNotFound) {
			t.Errorf("OpenSession after the end = %+v, %v; want ErrNotFound", s, err)
		}
		return nil
	})
	fx.c.Advance(time.Minute)
	s2, _, err := fx.e.StartSession(fx.ctx, chat, executor)
	if err != nil {
		t.Fatal(err)
	}
	fx.view(func(tx memgov.ReadTx) error {
		if s, err := tx.OpenSession(fx.ctx, chat); err != nil || s.ID != s2.ID || s.ID == s1.ID || s.StartLSN <= s1.StartLSN {
			t.Errorf("OpenSession of the second session = %+v, %v", s, err)
		}
		return nil
	})
}
