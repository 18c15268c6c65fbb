package merkle

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// logAt returns a test log of n leaves with its root and the consistency
// proof from size m.
func logAt(t *testing.T, m, n int) (oldRoot, newRoot Hash, proof []Hash) {
	t.Helper()
	leaves := testLeaves(n, 9)
	proof, err := ConsistencyProof(leaves, uint64(m))
	if err != nil {
		t.Fatal(err)
	}
	return Root(leaves[:m]), Root(leaves), proof
}

func TestAcceptAdvance(t *testing.T) {
	r3, r7, p37 := logAt(t, 3, 7)
	_, _, p27 := logAt(t, 2, 7)
	r0, _, p07 := logAt(t, 0, 7)
	prev := MemoryCheckpoint{Root: r3, TreeSize: 3, Seq: 4, ApprovedAt: t0, TTLSeconds: 3600}
	next := MemoryCheckpoint{Root: r7, TreeSize: 7, Seq: 5, ApprovedAt: t0.Add(time.Minute), TTLSeconds: 3600}
	with := func(c MemoryCheckpoint, f func(*MemoryCheckpoint)) MemoryCheckpoint { f(&c); return c }
	now := t0.Add(30 * time.Minute)

	tests := []struct {
		name   string
		prev   MemoryCheckpoint
		next   MemoryCheckpoint
		proof  []Hash
		now    time.Time
		budget Budget
		want   Code
	}{
		{"accept", prev, next, p37, now, Budget{}, CodeAccept},
		{"accept at the TTL's last second", prev, next, p37, next.ApprovedAt.Add(time.Hour), Budget{MaxOps: 4}, CodeAccept},
		{"accept from the empty log", with(prev, func(c *MemoryCheckpoint) { c.Root, c.TreeSize = r0, 0 }), next, p07, now, Budget{}, CodeAccept},
		{"accept with no new operations", prev, with(prev, func(c *MemoryCheckpoint) { c.Seq, c.ApprovedAt = 5, t0.Add(time.Minute) }), nil, now, Budget{MaxOps: 1}, CodeAccept},
		{"drift: no proof", prev, next, nil, now, Budget{}, CodeDrift},
		{"drift: proof for another size", prev, next, p27, now, Budget{}, CodeDrift},
		{"drift: rewritten history", with(prev, func(c *MemoryCheckpoint) { c.Root = flip(c.Root, 3) }), next, p37, now, Budget{}, CodeDrift},
		{"drift: log shrank", next, with(prev, func(c *MemoryCheckpoint) { c.Seq = 6 }), p37, now, Budget{}, CodeDrift},
		{"drift: same size, other root", prev, with(next, func(c *MemoryCheckpoint) { c.TreeSize = 3 }), nil, now, Budget{}, CodeDrift},
		{"drift: from empty log with a non-empty root", with(prev, func(c *MemoryCheckpoint) { c.TreeSize = 0 }), next, nil, now, Budget{}, CodeDrift},
		{"drift wins over rollback, expiry and budget", prev, with(next, func(c *MemoryCheckpoint) { c.Seq = 1 }), nil, t0.AddDate(1, 0, 0), Budget{MaxOps: 1}, CodeDrift},
		{"rollback: equal seq", prev, with(next, func(c *MemoryCheckpoint) { c.Seq = 4 }), p37, now, Budget{}, CodeRollback},
		{"rollback: lower seq", prev, with(next, func(c *MemoryCheckpoint) { c.Seq = 1 }), p37, now, Budget{}, CodeRollback},
		{"rollback wins over expiry", prev, with(next, func(c *MemoryCheckpoint) { c.Seq = 1 }), p37, t0.AddDate(1, 0, 0), Budget{}, CodeRollback},
		{"expired", prev, next, p37, next.ApprovedAt.Add(time.Hour + time.Nanosecond), Budget{}, CodeExpired},
		{"expired: negative TTL", prev, with(next, func(c *MemoryCheckpoint) { c.TTLSeconds = -1 }), p37, now, Budget{}, CodeExpired},
		{"huge TTL does not wrap", prev, with(next, func(c *MemoryCheckpoint) { c.TTLSeconds = 1 << 62 }), p37, now, Budget{}, CodeAccept},
		{"expiry wins over budget", prev, next, p37, t0.AddDate(1, 0, 0), Budget{MaxOps: 1}, CodeExpired},
		{"budget", prev, next, p37, now, Budget{MaxOps: 3}, CodeBudget},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := AcceptAdvance(tt.prev, tt.next, tt.proof, tt.now, tt.budget)
			if v.Code != tt.want {
				t.Fatalf("AcceptAdvance = %v, want %s", v, tt.want)
			}
			if v.Accepted() != (tt.want == CodeAccept) || v.Detail == "" {
				t.Fatalf("verdict %+v: Accepted() = %v", v, v.Accepted())
			}
			if tt.want == CodeDrift && !strings.Contains(v.Detail, EventMemoryDrift) {
				t.Errorf("drift detail %q does not name %s", v.Detail, EventMemoryDrift)
			}
		})
	}
}

func TestAcceptAudit(t *testing.T) {
	r2, r5, p25 := logAt(t, 2, 5)
	_, _, p35 := logAt(t, 3, 5)
	signed := AuditCheckpoint{Root: r2, TreeSize: 2, Seq: 10, ObservedAt: t0, TTLSeconds: 600}
	current := AuditCheckpoint{Root: r5, TreeSize: 5, Seq: 11, ObservedAt: t0.Add(time.Minute), TTLSeconds: 600}
	with := func(c AuditCheckpoint, f func(*AuditCheckpoint)) AuditCheckpoint { f(&c); return c }
	now := t0.Add(5 * time.Minute)

	tests := []struct {
		name            string
		signed, current AuditCheckpoint
		proof           []Hash
		now             time.Time
		want            Code
	}{
		{"accept", signed, current, p25, now, CodeAccept},
		{"accept same size, same seq", signed, with(signed, func(c *AuditCheckpoint) { c.ObservedAt = t0.Add(time.Minute) }), nil, now, CodeAccept},
		{"accept at the TTL's last second", signed, current, p25, t0.Add(10 * time.Minute), CodeAccept},
		{"mismatch: signed size 0", with(signed, func(c *AuditCheckpoint) { c.Root, c.TreeSize = EmptyRoot(), 0 }), current, nil, now, CodeMismatch},
		{"mismatch: current shorter", current, with(signed, func(c *AuditCheckpoint) { c.Seq = 12 }), p25, now, CodeMismatch},
		{"mismatch: no proof", signed, current, nil, now, CodeMismatch},
		{"mismatch: proof for another size", signed, current, p35, now, CodeMismatch},
		{"mismatch: forked history", with(signed, func(c *AuditCheckpoint) { c.Root = flip(c.Root, 9) }), current, p25, now, CodeMismatch},
		{"mismatch: same size, other root", signed, with(current, func(c *AuditCheckpoint) { c.TreeSize = 2 }), nil, now, CodeMismatch},
		{"mismatch: invalid signed TTL", with(signed, func(c *AuditCheckpoint) { c.TTLSeconds = 59 }), current, p25, now, CodeMismatch},
		{"mismatch: invalid current TTL", signed, with(current, func(c *AuditCheckpoint) { c.TTLSeconds = MaxTTL + 1 }), p25, now, CodeMismatch},
		{"mismatch wins over rollback and expiry", signed, with(current, func(c *AuditCheckpoint) { c.Seq = 1 }), nil, t0.AddDate(1, 0, 0), CodeMismatch},
		{"rollback: lower seq", signed, with(current, func(c *AuditCheckpoint) { c.Seq = 9 }), p25, now, CodeRollback},
		{"rollback: equal seq, sizes differ", signed, with(current, func(c *AuditCheckpoint) { c.Seq = 10 }), p25, now, CodeRollback},
		{"rollback: same size, lower seq", signed, with(signed, func(c *AuditCheckpoint) { c.Seq = 9 }), nil, now, CodeRollback},
		{"rollback wins over expiry", signed, with(current, func(c *AuditCheckpoint) { c.Seq = 10 }), p25, t0.AddDate(1, 0, 0), CodeRollback},
		{"expired", signed, current, p25, t0.Add(10*time.Minute + time.Second), CodeExpired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := AcceptAudit(tt.signed, tt.current, tt.proof, tt.now)
			if v.Code != tt.want {
				t.Fatalf("AcceptAudit = %v, want %s", v, tt.want)
			}
			if v.Accepted() != (tt.want == CodeAccept) || v.Detail == "" {
				t.Fatalf("verdict %+v: Accepted() = %v", v, v.Accepted())
			}
		})
	}
}

func TestCheckpointValidate(t *testing.T) {
	tests := []struct {
		name string
		err  error
		ok   bool
	}{
		{"audit ttl 60", AuditCheckpoint{ObservedAt: t0, TTLSeconds: 60}.Validate(), true},
		{"audit ttl max", AuditCheckpoint{ObservedAt: t0, TTLSeconds: MaxTTL}.Validate(), true},
		{"audit ttl 59", AuditCheckpoint{ObservedAt: t0, TTLSeconds: 59}.Validate(), false},
		{"audit ttl max+1", AuditCheckpoint{ObservedAt: t0, TTLSeconds: MaxTTL + 1}.Validate(), false},
		{"audit no time", AuditCheckpoint{TTLSeconds: 60}.Validate(), false},
		{"memory ttl 3600", MemoryCheckpoint{ApprovedAt: t0, TTLSeconds: 3600}.Validate(), true},
		{"memory ttl 3599", MemoryCheckpoint{ApprovedAt: t0, TTLSeconds: 3599}.Validate(), false},
		{"memory ttl max+1", MemoryCheckpoint{ApprovedAt: t0, TTLSeconds: MaxTTL + 1}.Validate(), false},
		{"memory no time", MemoryCheckpoint{TTLSeconds: 3600}.Validate(), false},
	}
	for _, tt := range tests {
		if tt.ok != (tt.err == nil) || (!tt.ok && !errors.Is(tt.err, ErrInvalidCheckpoint)) {
			t.Errorf("%s: Validate = %v", tt.name, tt.err)
		}
	}
}

func TestCheckpointJSON(t *testing.T) {
	root := LeafHash(TagKV, []byte("x"))
	at := time.Date(2026, 3, 1, 12, 0, 0, 500, time.FixedZone("CET", 3600))

	a := AuditCheckpoint{Root: root, TreeSize: 3, Seq: 7, ObservedAt: at, TTLSeconds: 600}
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"audit_chain_root":"` + root.Prefixed() + `","tree_size":3,"seq":7,"observed_at":"2026-03-01T11:00:00.0000005Z","ttl_seconds":600}`
	if string(b) != want {
		t.Errorf("audit JSON = %s\nwant %s", b, want)
	}
	var a2 AuditCheckpoint
	if err := json.Unmarshal(b, &a2); err != nil || !a2.ObservedAt.Equal(at) || a2.Root != root || a2.TreeSize != 3 || a2.Seq != 7 || a2.TTLSeconds != 600 {
		t.Errorf("audit round trip = %+v, %v", a2, err)
	}

	m := MemoryCheckpoint{Root: root, TreeSize: 2, Seq: 1, ApprovedAt: t0, TTLSeconds: 3600}
	b, err = json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	want = `{"memory_root":"` + root.Prefixed() + `","tree_size":2,"seq":1,"approved_at":"2026-03-01T12:00:00Z","ttl_seconds":3600}`
	if string(b) != want {
		t.Errorf("memory JSON = %s\nwant %s", b, want)
	}
	var m2 MemoryCheckpoint
	if err := json.Unmarshal(b, &m2); err != nil || m2 != m {
		t.Errorf("memory round trip = %+v, %v", m2, err)
	}

	bad := []string{
		`{"memory_root":"` + root.String() + `","tree_size":2,"seq":1,"approved_at":"2026-03-01T12:00:00Z","ttl_seconds":3600}`,
		`{"memory_root":"` + root.Prefixed() + `","tree_size":2,"seq":1,"approved_at":"2026-03-01T13:00:00+01:00","ttl_seconds":3600}`,
		`{"memory_root":"` + root.Prefixed() + `","tree_size":-2,"seq":1,"approved_at":"2026-03-01T12:00:00Z","ttl_seconds":3600}`,
		`{"memory_root":"` + root.Prefixed() + `","tree_size":2,"seq":1,"approved_at":"yesterday","ttl_seconds":3600}`,
		`[]`,
	}
	for _, s := range bad {
		var c MemoryCheckpoint
		if err := json.Unmarshal([]byte(s), &c); err == nil {
			t.Errorf("Unmarshal accepted %s", s)
		}
		var ac AuditCheckpoint
		if err := json.Unmarshal([]byte(strings.Replace(strings.Replace(s, "memory_root", "audit_chain_root", 1), "approved_at", "observed_at", 1)), &ac); err == nil {
			t.Errorf("audit Unmarshal accepted %s", s)
		}
	}

	if _, err := json.Marshal(MemoryCheckpoint{TreeSize: MaxSafeInteger + 1}); !errors.Is(err, ErrInvalidCheckpoint) {
		t.Errorf("Marshal of an unsafe integer = %v", err)
	}
	if _, err := json.Marshal(AuditCheckpoint{Seq: MaxSafeInteger + 1}); !errors.Is(err, ErrInvalidCheckpoint) {
		t.Errorf("audit Marshal of an unsafe integer = %v", err)
	}
}

func TestSign(t *testing.T) {
	key := []byte("memgov test key")
	c := MemoryCheckpoint{Root: LeafHash(TagKV, []byte("x")), TreeSize: 2, Seq: 1, ApprovedAt: t0, TTLSeconds: 3600}
	sig, err := Sign(key, c)
	if err != nil {
		t.Fatal(err)
	}
	if len(sig) != 64 {
		t.Fatalf("signature %q is not 32 bytes of hex", sig)
	}
	if err := VerifySignature(key, c, sig); err != nil {
		t.Fatalf("VerifySignature = %v", err)
	}
	// The signature covers the canonical JSON, so it survives a round trip.
	b, _ := json.Marshal(c)
	var c2 MemoryCheckpoint
	if err := json.Unmarshal(b, &c2); err != nil {
		t.Fatal(err)
	}
	if err := VerifySignature(key, c2, sig); err != nil {
		t.Fatalf("VerifySignature after a round trip = %v", err)
	}

	changed := c
	changed.Seq = 2
	tests := []struct {
		name string
		key  []byte
		v    any
		sig  string
	}{
		{"changed checkpoint", key, changed, sig},
		{"other key", []byte("other"), c, sig},
		{"flipped signature", key, c, "0" + sig[1:]},
		{"truncated signature", key, c, sig[:62]},
		{"not hex", key, c, "zz" + sig[2:]},
		{"empty signature", key, c, ""},
	}
	if sig[0] == '0' {
		tests[2].sig = "1" + sig[1:]
	}
	for _, tt := range tests {
		if err := VerifySignature(tt.key, tt.v, tt.sig); !errors.Is(err, ErrBadSignature) {
			t.Errorf("%s: VerifySignature = %v, want ErrBadSignature", tt.name, err)
		}
	}
	if _, err := Sign(nil, c); err == nil {
		t.Error("Sign with an empty key succeeded")
	}
	if _, err := Sign(key, func() {}); err == nil {
		t.Error("Sign of a value JSON cannot encode succeeded")
	}
	if err := VerifySignature(nil, c, sig); err == nil {
		t.Error("VerifySignature with an empty key succeeded")
	}
}
