package oplog_test

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
)

// testdata/payloads.golden holds the canonical payloads, entry form, leaf and
// chain that memgov wrote before the log format moved into this package.
// Sealing the same values with the typed data of oplog must give the same
// bytes, or logs written before would no longer verify.
func readGolden(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open("testdata/payloads.golden")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		name, body, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			t.Fatalf("malformed golden line %q", sc.Text())
		}
		out[name] = body
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func mustData(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPayloadBytesUnchanged(t *testing.T) {
	golden := readGolden(t)
	c, s, auth := 0.75, 0.5, 0.9
	at := time.Date(2026, 1, 2, 3, 4, 5, 678000000, time.UTC)
	ack := at.Add(time.Hour)
	sh := "sha256:snap"
	ev := []oplog.EvidenceRef{{SourceType: "MEMORY_ITEM", SourceURI: "https://x/<a>&b", SourceItemID: "it-1", Authority: &auth, AccessedAt: &at, Excerpt: "quote \"x\" é"}, {SourceType: "USER"}}
	prov := &oplog.Provenance{ProvenanceID: "pv", MemoryItemID: "mi", SourceAgentID: "ag", SourceTaskID: "tk", SourceSessionID: "ss", RequestID: "rq",
		EvidenceRefs: ev, EvidenceQuality: "HIGH", AgentConfidence: 0.8, AdjustedConfidence: 0.7, ValidationScore: 0.6, HumanApprovalState: "APPROVED",
		ApproverID: "ap", ApprovalTimestamp: "2026-01-02T03:04:05.678Z", ApprovalJustification: "why", CreatedAt: "2026-01-02T03:04:05.678Z", Supersedes: "v0",
		ContentHash: "sha256:ab", Signature: "sig"}
	d := func(v any) json.RawMessage { return mustData(t, v) }
	cases := []struct {
		name string
		p    oplog.Payload
	}{
		{"version-full", oplog.Payload{Reason: "r <b>", Key: "k", Layer: "SEMANTIC", Content: json.RawMessage(`{"text":"hello","n":1.50}`), ContentHash: "sha256:cc",
			Tags: []string{"a", "b"}, Confidence: &c, ValidationScore: &s, Classification: "INTERNAL", ExpiresAt: "2026-02-01T00:00:00.000Z", MergedFrom: "v9",
			Data: d(oplog.VersionData{IdempotencyToken: "tok", RequestID: "rq", RunID: "run", SessionID: "ss", ObservationType: "fact", Residency: "eu",
				Evidence: ev, Provenance: prov})}},
		{"version-min", oplog.Payload{}},
		{"stage", oplog.Payload{Reason: "staged", Data: d(oplog.VersionData{Review: &oplog.StagedReview{ID: "rv", Tier: "T2", Risk: 0.42, Reason: "RISK",
			DueAt: "2026-01-03T00:00:00.000Z", Detail: json.RawMessage(`{"b":1,"a":[2]}`)}})}},
		{"stage-nodetail", oplog.Payload{Data: d(oplog.VersionData{Review: &oplog.StagedReview{ID: "rv"}})}},
		{"decision", oplog.Payload{Reason: "ok", Data: d(oplog.VersionData{Decision: &oplog.DecisionData{ReviewID: "rv", Code: "C", Note: "n"}})}},
		{"decision-min", oplog.Payload{Data: d(oplog.VersionData{Decision: &oplog.DecisionData{ReviewID: "rv"}})}},
		{"evidence-only", oplog.Payload{Data: d(oplog.VersionData{Evidence: ev})}},
		{"principal", oplog.Payload{Reason: "register principal", Data: d(oplog.PrincipalData{Role: "executor", Tenant: "acme", Attributes: map[string]string{"z": "1", "a": "2"}})}},
		{"principal-min", oplog.Payload{Data: d(oplog.PrincipalData{Role: "admin"})}},
		{"audit", oplog.Payload{Data: d(oplog.AuditCheckpointRecord{AuditCheckpoint: merkle.AuditCheckpoint{Root: merkle.Hash{1, 2, 3}, TreeSize: 10, Seq: 2,
			ObservedAt: at, TTLSeconds: 3600}, Signature: "sig"})}},
		{"claim", oplog.Payload{Data: d(oplog.ClaimData{ReviewID: "rv", Holder: "h", Token: 7, Expires: "2026-01-02T03:04:05.678Z", Note: "n"})}},
		{"claim-min", oplog.Payload{Data: d(oplog.ClaimData{ReviewID: "rv"})}},
		{"commitment", oplog.Payload{Data: d(oplog.CommitmentData{ID: "c", Tenant: "t", SourceVersionID: "v", Kind: "deadline", DueAt: "2026-01-02T03:04:05.678Z",
			Predicate: json.RawMessage(`{"x": 1}`)})}},
		{"commitment-min", oplog.Payload{Data: d(oplog.CommitmentData{ID: "c"})}},
		{"consolidate", oplog.Payload{Data: d(oplog.ConsolidateData{InputCount: 5, OutputCount: 3, Merged: 1, Superseded: 1, Strengthened: 2})}},
		{"consolidate-zero", oplog.Payload{Data: d(oplog.ConsolidateData{})}},
		{"distill", oplog.Payload{Data: d(oplog.DistillData{TokenBudget: 100, TokensUsed: 50, IndexUpdated: true, ArchiveKey: "ak", ArchiveHash: "sha256:ah", Sources: 4})}},
		{"distill-zero", oplog.Payload{Data: d(oplog.DistillData{})}},
		// A BASELINE_APPROVE entry carries the root's Baseline record; its
		// frontier is derived on apply, never written.
		{"baseline", oplog.Payload{Data: d(memgov.Baseline{ID: "b", MemoryRef: "acme/a", SnapshotHash: &sh, MemoryType: "persistent", Store: "memgov",
			ApprovedAt: at, BoundAt: at, TTLSeconds: 60, DriftPolicy: "deny", SharedMemoryOwner: "o", CheckIntervalSeconds: 30, ComplianceLevel: 2,
			ApprovedBy: "ap", DeltaBudget: 5, LogPosition: 9, BaseTreeSize: 4, BaseSeq: 1, BaseFrontier: []byte{1, 2}, LSN: 3})}},
		{"baseline-min", oplog.Payload{Data: d(memgov.Baseline{ID: "b", MemoryType: "none"})}},
		// memgov wrote a DRIFT_DETECTED entry's data by encoding the whole
		// episode, whose acknowledgement is empty (omitted) when it opens: the
		// golden line encodes one with an acknowledgement, which the root's
		// DriftEvent (the opening DriftData and the acknowledgement) still
		// encodes to the same bytes; the entry's own data, DriftData, encodes
		// an opening episode as before (drift-min, and
		// TestDriftEntryIsTheOpeningEpisode).
		{"drift", oplog.Payload{Data: d(memgov.DriftEvent{DriftData: oplog.DriftData{ID: "d", Event: "MEMORY_DRIFT_DETECTED", MemoryRef: "acme/a", BaselineID: "b",
			Policy: "deny", Cause: "c", ApprovedHash: "h1", CurrentHash: "h2", Detail: "dt", DetectedAt: at, LSN: 4},
			AckedAt: &ack, AckedBy: "op", Resolution: "rollback", Note: "n", AckLSN: 5})}},
		{"drift-min", oplog.Payload{Data: d(oplog.DriftData{ID: "d"})}},
		{"drift-min", oplog.Payload{Data: d(memgov.DriftEvent{DriftData: oplog.DriftData{ID: "d"}})}},
		{"driftack", oplog.Payload{Data: d(oplog.DriftAckData{DriftID: "d", Resolution: "reapprove", Note: "n", NewBaselineID: "b2"})}},
		{"driftack-min", oplog.Payload{Data: d(oplog.DriftAckData{DriftID: "d"})}},
		{"session", oplog.Payload{Data: d(oplog.SessionData{SessionID: "s"})}},
		{"erasure", oplog.Payload{Data: d(oplog.ErasureData{Kind: "subject", RequestID: "r", SubjectHash: "sh", RequestedAt: "2026-01-02T03:04:05.678Z",
			Items: []string{"a"}, LSNs: []int64{1, 2}, ByLayer: map[string]int{"SEMANTIC": 1}})}},
		{"erasure-min", oplog.Payload{Data: d(oplog.ErasureData{})}},
		{"gc-expire", oplog.Payload{Data: d(oplog.ExpireData{GC: "soft"})}},
		{"annotate", oplog.Payload{Data: d(oplog.AnnotationData{Kind: "note", Note: "hi"})}},
		{"annotate-empty", oplog.Payload{Data: d(oplog.AnnotationData{})}},
		{"reclassify", oplog.Payload{Layer: "SEMANTIC", Data: d(oplog.ReclassifyData{From: "WORKING", To: "SEMANTIC"})}},
		{"lease-acquire", oplog.Payload{Data: d(oplog.LeaseData{Key: "k", Token: 3, ExpiresAt: at.Format(time.RFC3339Nano)})}},
		{"lease-release", oplog.Payload{Data: d(oplog.LeaseData{Key: "k", Token: 3})}},
		{"proposal", oplog.Payload{Data: d(oplog.ProposalData{ID: "p", Kind: "skill", Title: "t", Artifact: json.RawMessage(`{"a":1}`), ArtifactHash: "sha256:x",
			Rationale: "r", DuplicateOf: "d", Owner: &oplog.ProposalOwner{Tenant: "acme", Workspace: "w", Principal: "pr"}, SourceRunIDs: []string{"r1"}, Gate: "g", Note: "n"})}},
		{"proposal-min", oplog.Payload{Data: d(oplog.ProposalData{ID: "p", Owner: &oplog.ProposalOwner{Tenant: "acme"}})}},
		{"workspace", oplog.Payload{Data: d(oplog.WorkspaceData{Action: "open", ID: "i", Name: "n", BaseRef: "acme/a", BaseLSN: 3, Key: "k",
			Request: json.RawMessage(`{"changes":[]}`)})}},
		{"workspace-min", oplog.Payload{Data: d(oplog.WorkspaceData{Action: "merge"})}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want, ok := golden[tc.name]
			if !ok {
				t.Fatalf("no golden payload %q", tc.name)
			}
			tc.p.Salt = "00112233445566778899aabbccddeeff"
			var e oplog.Entry
			if err := e.Seal(tc.p); err != nil {
				t.Fatal(err)
			}
			if string(e.Payload) != want {
				t.Errorf("sealed payload differs from the format's bytes\n got %s\nwant %s", e.Payload, want)
			}
			if e.PayloadHash != oplog.HashPayload([]byte(want)) {
				t.Errorf("payload hash %s does not hash the golden bytes", e.PayloadHash)
			}
		})
	}
}

// A DRIFT_DETECTED entry written now carries DriftData; memgov wrote the
// whole episode before, unacknowledged when it opens. The two encode an
// opening episode to the same bytes.
func TestDriftEntryIsTheOpeningEpisode(t *testing.T) {
	d := oplog.DriftData{ID: "d", Event: "MEMORY_DRIFT_DETECTED", MemoryRef: "acme/a", BaselineID: "b", Policy: "deny", Cause: "c",
		ApprovedHash: "h1", CurrentHash: "h2", Detail: "dt", DetectedAt: time.Date(2026, 1, 2, 3, 4, 5, 678000000, time.UTC), LSN: 4}
	entry, episode := mustData(t, d), mustData(t, memgov.DriftEvent{DriftData: d})
	if string(entry) != string(episode) {
		t.Errorf("an opening episode encodes as\n%s\nits entry's data as\n%s", episode, entry)
	}
}

func TestSkeletonBytesUnchanged(t *testing.T) {
	golden := readGolden(t)
	c, s := 0.75, 0.5
	ev := []oplog.EvidenceRef{{SourceType: "MEMORY_ITEM", SourceURI: "u", SourceItemID: "it-1", Excerpt: "secret"}, {SourceType: "USER"}}
	full := oplog.Payload{Reason: "r", Salt: "s", Key: "k", Layer: "SEMANTIC", Content: json.RawMessage(`{"text":"x"}`), ContentHash: "h", Tags: []string{"t"},
		Confidence: &c, ValidationScore: &s, Classification: "PII", ExpiresAt: "2026-02-01T00:00:00.000Z", MergedFrom: "m",
		Data: mustData(t, oplog.VersionData{IdempotencyToken: "tok", SessionID: "ss", ObservationType: "fact", Residency: "eu", Evidence: ev,
			Provenance: &oplog.Provenance{ProvenanceID: "pv"},
			Review:     &oplog.StagedReview{ID: "rv", Tier: "T", Risk: 0.3, Reason: "R", DueAt: "d", Detail: json.RawMessage(`{"a":1}`)},
			Decision:   &oplog.DecisionData{ReviewID: "rv", Code: "C", Note: "secret"}})}
	var fe oplog.Entry
	if err := fe.Seal(full); err != nil {
		t.Fatal(err)
	}
	var re oplog.Entry
	if err := re.Seal(oplog.Payload{Salt: "s", Layer: "SEMANTIC", Data: json.RawMessage(`{"from":"WORKING","to":"SEMANTIC","x":"y"}`)}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, item string
		body       []byte
	}{{"skeleton-full", "item-1", fe.Payload}, {"skeleton-reclassify", "item-2", re.Payload}, {"skeleton-empty", "item-3", nil}} {
		sk, err := oplog.ErasedSkeleton(tc.item, tc.body)
		if err != nil {
			t.Fatal(err)
		}
		if string(sk) != golden[tc.name] {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, sk, golden[tc.name])
		}
		if strings.Contains(string(sk), "secret") {
			t.Errorf("%s keeps erased text: %s", tc.name, sk)
		}
	}
}

func TestEntryLeafAndChainUnchanged(t *testing.T) {
	golden := readGolden(t)
	at := time.Date(2026, 1, 2, 3, 4, 5, 678000000, time.UTC)
	e := oplog.Entry{LSN: 7, Time: at, Op: oplog.Update, MemoryRef: "acme/a", ItemID: "i", VersionID: "v", PrevVersionID: "pv", Actor: "ag", PayloadHash: "sha256:ff"}
	cj, err := e.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	if string(cj) != golden["canonical"] {
		t.Errorf("canonical entry:\n got %s\nwant %s", cj, golden["canonical"])
	}
	leaf, err := e.ComputeLeaf()
	if err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(leaf[:]); got != golden["leaf"] {
		t.Errorf("leaf %s, want %s", got, golden["leaf"])
	}
	ch := oplog.ChainNext([]byte("key"), merkle.Hash{9}, leaf)
	if got := hex.EncodeToString(ch[:]); got != golden["chain"] {
		t.Errorf("chain %s, want %s", got, golden["chain"])
	}
}

func TestDecodeDataRoundTrip(t *testing.T) {
	var e oplog.Entry
	e.Op, e.LSN = oplog.Claim, 3
	if err := e.Seal(oplog.Payload{Reason: "claim", Data: mustData(t, oplog.ClaimData{ReviewID: "rv", Holder: "h", Token: 2})}); err != nil {
		t.Fatal(err)
	}
	got, err := oplog.DecodeData[oplog.ClaimData](&e)
	if err != nil {
		t.Fatal(err)
	}
	if got != (oplog.ClaimData{ReviewID: "rv", Holder: "h", Token: 2}) {
		t.Errorf("decoded %+v", got)
	}
	e.Payload = nil // erased
	if _, err := oplog.DecodeData[oplog.ClaimData](&e); err == nil || !strings.Contains(err.Error(), "CLAIM data") {
		t.Errorf("decoding an erased payload's data: err = %v, want an error naming the op", err)
	}
}

func TestAllOpsDistinctAndKnown(t *testing.T) {
	seen := map[oplog.Op]bool{}
	for _, op := range oplog.All() {
		if seen[op] {
			t.Errorf("%s listed twice", op)
		}
		seen[op] = true
		if !op.Known() {
			t.Errorf("%s not known", op)
		}
	}
	if len(seen) != 43 {
		t.Errorf("%d operations, want 43", len(seen))
	}
	if oplog.Op("NOPE").Known() {
		t.Error("an undeclared op is known")
	}
}
