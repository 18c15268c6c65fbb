package gate

import (
	"context"
	"sort"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
)

// ProvenanceInput is what the provenance gate needs: the request's facts and
// what the evidence, contradiction and dedup gates found.
type ProvenanceInput struct {
	ID        string // the new provenance record's id
	CreatedAt string // the write's time, as the log writes times
	Agent     string
	RunID     string
	SessionID string
	RequestID string
	Layer     memgov.Layer
	Evidence  []oplog.EvidenceRef
	// ContentHash is the hash of the canonical, redacted content.
	ContentHash string
	Confidence  float64 // the writer's confidence
	// Scored: the evidence gate computed Factual and Adjusted.
	Scored         bool
	Factual        float64
	Adjusted       float64
	Contradictions int // items the write contradicts
	Candidates     int // neighbours the write was compared with
	// Item is the existing item the write updates, if any.
	Item   *memgov.Item
	Policy *policy.Policy
}

// ProvenanceResult is what the provenance gate adds.
type ProvenanceResult struct {
	Result
	// Record is the provenance record, unsigned: the engine signs it once
	// the write's item is known.
	Record oplog.Provenance
	// Validation is the composite validation score (spec §12.2.5).
	Validation float64
	// Adjusted is the adjusted confidence the record carries.
	Adjusted float64
}

// Provenance stamps the provenance record (spec §12.4.2) and the composite
// validation score (spec §12.2.5).
type Provenance struct{}

// Name returns NameProvenance.
func (Provenance) Name() string { return NameProvenance }

// Evaluate builds the record; it always accepts, reads nothing and never
// fails.
func (Provenance) Evaluate(_ context.Context, in ProvenanceInput) (ProvenanceResult, error) {
	adjusted := in.Adjusted
	if !in.Scored {
		adjusted = in.Confidence
	}
	validation := in.Policy.ValidationScore(true, in.Factual, in.Contradictions, in.Candidates)
	if !in.Layer.Durable() {
		validation = 1
	}
	quality := "INFERRED"
	for _, r := range in.Evidence {
		switch r.SourceType {
		case "HUMAN_INPUT", "API_RESPONSE", "DOCUMENT":
			quality = "PRIMARY"
		case "TOOL_OUTPUT", "CODE_EXECUTION":
			if quality != "PRIMARY" {
				quality = "SECONDARY"
			}
		case "MEMORY_ITEM":
			if quality == "INFERRED" {
				quality = "DERIVED"
			}
		}
	}
	evs := append([]oplog.EvidenceRef{}, in.Evidence...)
	sort.SliceStable(evs, func(i, j int) bool { return authorityOf(evs[i]) > authorityOf(evs[j]) })
	rec := oplog.Provenance{ProvenanceID: in.ID, SourceAgentID: in.Agent, SourceTaskID: in.RunID,
		SourceSessionID: in.SessionID, RequestID: in.RequestID, EvidenceRefs: evs, EvidenceQuality: quality,
		AgentConfidence: in.Confidence, AdjustedConfidence: adjusted, ValidationScore: validation,
		HumanApprovalState: "NOT_REQUIRED", CreatedAt: in.CreatedAt, ContentHash: in.ContentHash}
	if in.Item != nil {
		rec.MemoryItemID, rec.Supersedes = in.Item.ID, in.Item.Head
	}
	return ProvenanceResult{Result: accept(), Record: rec, Validation: validation, Adjusted: adjusted}, nil
}

func authorityOf(r oplog.EvidenceRef) float64 {
	if r.Authority != nil {
		return *r.Authority
	}
	return 0
}
