package memgov

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memgov/memgov/engine/oplog"
)

// PipelineReader reads what the governed write path decides with:
// idempotency tokens, recorded outcomes (rate limits and budgets), duplicate
// and contradiction candidates, and evidence links.
type PipelineReader interface {
	// Idempotent returns the record of a write made with token at or after
	// since; found is false when there is none.
	Idempotent(ctx context.Context, token string, since time.Time) (rec IdempotencyRecord, found bool, err error)
	// CountOutcomes counts the outcomes recorded for agent at or after since,
	// to layer ("": every layer), with one of statuses (none: any status).
	CountOutcomes(ctx context.Context, agent string, layer Layer, since time.Time, statuses ...string) (int, error)
	// CountSessionCommits counts agent's outcomes in sessionID whose status is
	// COMMITTED, MERGED or DEFERRED.
	CountSessionCommits(ctx context.Context, agent, sessionID string) (int, error)
	// Candidates returns the ACTIVE or DRAFT versions of q.MemoryRef in the
	// EPISODIC, SEMANTIC or PROCEDURAL layers that share q.ContentHash,
	// q.Fingerprint, q.Subject or one of q.Bands (each criterion only when
	// set; a band may contribute only its newest members), at most q.Limit
	// (0: 400); a query that sets no criterion returns none.
	Candidates(ctx context.Context, q CandidateQuery) ([]Candidate, error)
	// CandidateRows returns in full the ACTIVE or DRAFT versions among ids
	// that a Candidates query of layer ("": the durable layers) could
	// return, in the order of ids: the rows of the candidates a light query
	// (CandidateQuery.Light) returned that the caller keeps. It leaves out
	// their Embedding, which the light query read.
	CandidateRows(ctx context.Context, ids []string, layer Layer) ([]Candidate, error)
	// TopicCandidates returns the ACTIVE or DRAFT versions of q.MemoryRef in
	// layer q.Layer whose text best matches q.Text in the full-text index
	// (BM25, at most q.Limit, 0: 20), followed by those whose extracted
	// subject is q.Subject (when set). Erased versions are not in the index.
	TopicCandidates(ctx context.Context, q TopicQuery) ([]Candidate, error)
	// CitedItems returns, once each, the items that the ACTIVE or DRAFT
	// versions of itemID cite as MEMORY_ITEM evidence.
	CitedItems(ctx context.Context, itemID string) ([]string, error)
}

// PipelineWriter records write outcomes.
type PipelineWriter interface {
	// RecordOutcome stores a write outcome for rate limits and the metrics.
	// It is not a log entry: an outcome that changes nothing in memory is
	// telemetry, and a rebuild from the log does not restore it.
	RecordOutcome(ctx context.Context, o Outcome) error
}

// SweepResult counts what a sweep did.
type SweepResult struct {
	Escalated int `json:"escalated"` // async reviews past their SLA
	TimedOut  int `json:"timed_out"` // sync reviews past their deadline, rejected fail-closed
}

// CheckKey refuses an entry key holding a dot segment ("." or ".." between
// slashes or backslashes), or U+FFFD, the character a lone surrogate or an
// invalid byte decodes to. Doors check the keys they read with it too, so
// reads and writes refuse the same keys.
func CheckKey(key string) error {
	if !utf8.ValidString(key) {
		return fmt.Errorf("%w: key is not valid UTF-8", ErrInvalid)
	}
	if strings.ContainsRune(key, utf8.RuneError) {
		return fmt.Errorf("%w: key holds U+FFFD, the mark of a lone UTF-16 surrogate or an invalid byte: send the key as valid text", ErrInvalid)
	}
	for _, seg := range strings.FieldsFunc(key, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == "." || seg == ".." {
			return fmt.Errorf("%w: key holds the dot segment %q: keys name entries, not paths", ErrInvalid, seg)
		}
	}
	return nil
}

// CheckExactJSON refuses JSON text that decoding would change: a \u escape
// of a lone UTF-16 surrogate (anywhere, keys and strings alike) and an
// integer literal beyond 2^53, which JSON numbers do not carry exactly. what names the part
// of the request in the error ("the request", "content").
func CheckExactJSON(what string, raw []byte) error {
	if err := checkSurrogates(what, raw); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return nil // not JSON: the decoder or the schema gate says so
		}
		n, ok := tok.(json.Number)
		if !ok || strings.ContainsAny(string(n), ".eE") {
			continue
		}
		i, ok := new(big.Int).SetString(string(n), 10)
		if !ok {
			continue
		}
		if i.CmpAbs(maxExactInt) > 0 {
			f, _ := new(big.Float).SetInt(i).Float64()
			shown := string(n)
			if len(shown) > 40 {
				shown = shown[:40] + "..."
			}
			return fmt.Errorf("%w: %s holds the integer %s, which a JSON number cannot carry exactly (it would be stored as %g): send it as a string", ErrInvalid, what, shown, f)
		}
	}
}

// maxExactInt is 2^53: every integer up to it is a float64 printed with
// its own digits; beyond it JSON numbers lose digits (I-JSON, RFC 7493).
var maxExactInt = new(big.Int).Lsh(big.NewInt(1), 53)

// checkSurrogates finds a \uD800-\uDFFF escape that is not half of a pair
// (a high surrogate followed at once by a low one) inside raw.
func checkSurrogates(what string, raw []byte) error {
	inString := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if !inString {
			if c == '"' {
				inString = true
			}
			continue
		}
		switch c {
		case '"':
			inString = false
		case '\\':
			if i+1 >= len(raw) {
				return nil
			}
			if raw[i+1] != 'u' {
				i++ // a two-character escape
				continue
			}
			r, ok := hex4(raw, i+2)
			if !ok {
				i++
				continue
			}
			switch {
			case r >= 0xD800 && r <= 0xDBFF:
				lo, ok := -1, false
				if i+7 < len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
					lo, ok = hex4(raw, i+8)
				}
				if !ok || lo < 0xDC00 || lo > 0xDFFF {
					return surrogateError(what, r)
				}
				i += 11
			case r >= 0xDC00 && r <= 0xDFFF:
				return surrogateError(what, r)
			default:
				i += 5
			}
		}
	}
	return nil
}

func surrogateError(what string, r int) error {
	return fmt.Errorf("%w: %s holds the lone UTF-16 surrogate escape \\u%04x, which is not a character: send valid text", ErrInvalid, what, r)
}

func hex4(b []byte, at int) (int, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	v := 0
	for _, c := range b[at : at+4] {
		v <<= 4
		switch {
		case '0' <= c && c <= '9':
			v |= int(c - '0')
		case 'a' <= c && c <= 'f':
			v |= int(c-'a') + 10
		case 'A' <= c && c <= 'F':
			v |= int(c-'A') + 10
		default:
			return 0, false
		}
	}
	return v, true
}

// Reason codes the gates give their verdicts.
const (
	ReasonResidency = "RESIDENCY_VIOLATION"
)

// TopicQuery selects a write's same-topic neighbours within one memoryRef and
// layer: the versions whose text ranks highest (BM25 over the full-text
// index) against Text, plus those whose extracted subject is Subject.
type TopicQuery struct {
	MemoryRef string
	Layer     Layer
	Text      string
	Subject   string
	// Limit caps the full-text matches (0: 20); subject matches come on top.
	Limit int
	// VersionIDs are further neighbours found by other means (a model's
	// vectors), read too when they are live versions of the ref and layer.
	VersionIDs []string
}

// Write statuses (spec §12.1.6).
const (
	StatusCommitted        = "COMMITTED"
	StatusMerged           = "MERGED"
	StatusAlreadyCommitted = "ALREADY_COMMITTED"
	StatusRejected         = "REJECTED"
	StatusDeferred         = "DEFERRED"
	StatusDeadlineExceeded = "DEADLINE_EXCEEDED"
	StatusDenied           = "DENIED"
)

// RelatedItem is an existing item a write contradicts or duplicates, shown
// side by side with the new one.
type RelatedItem struct {
	Relation   string  `json:"relation"` // CONTRADICTS, DUPLICATES, NEAR_DUPLICATE, SUPERSEDES
	ItemID     string  `json:"item_id"`
	VersionID  string  `json:"version_id"`
	Key        string  `json:"key"`
	Text       string  `json:"text"`
	OldText    string  `json:"old_text,omitempty"` // CONFLICTS_WITH: the text when the workspace was opened
	Similarity float64 `json:"similarity,omitempty"`
	Confidence float64 `json:"confidence,omitempty"`
	State      State   `json:"state"`
	// Rule names the judge rule behind the relation (a row of
	// judge.RuleTable, e.g. "role-swap"), and RuleWords the words that
	// fired it.
	Rule      string   `json:"rule,omitempty"`
	RuleWords []string `json:"rule_words,omitempty"`
}

// Candidate is an indexed version the dedup and contradiction gates compare
// a write against.
type Candidate struct {
	VersionID   string
	ItemID      string
	Key         string
	Layer       Layer
	State       State
	ContentHash string
	Fingerprint []byte
	Subject     string
	Predicate   string
	Object      string
	Embedding   []byte
	Text        string
	Confidence  float64
	CreatedBy   string
	// Sketch is the version's stored judge sketch (VersionFeatures.Sketch),
	// if any.
	Sketch []byte
}

// CandidateQuery selects candidates within one memoryRef, in every durable
// layer (contradictions cross layers; the dedup gate keeps to its own).
type CandidateQuery struct {
	MemoryRef   string
	ContentHash string
	Fingerprint []byte
	Bands       []uint32 // band number << 16 | value
	// MaxHamming, when positive and Bands holds all 16 bands, drops the
	// band candidates whose SimHash differs from the query's in more bits
	// (similar.MaxHamming of the least cosine the caller needs).
	MaxHamming int
	Subject    string
	Limit      int
	// Layer, when set, returns that layer's versions only (SESSION
	// included); "": the durable layers' (EPISODIC, SEMANTIC, PROCEDURAL).
	Layer Layer
	// Light returns only what candidates are pruned by: VersionID, ItemID,
	// Key, Layer, ContentHash, Fingerprint, Subject and Embedding, read
	// without the versions' content. The versions are those of every
	// state (State is left empty, and Limit counts them all): CandidateRows
	// reads the full rows of those the caller keeps and drops those no
	// longer ACTIVE or DRAFT.
	Light bool
}

// IdempotencyRecord is a registered idempotency token.
type IdempotencyRecord struct {
	Status    string
	ItemID    string
	VersionID string
	ReviewID  string
	Key       string
	// Scope is the digest of what the token covered (gate.Scope); "" for a
	// token registered before memgov kept it.
	Scope     string
	CreatedAt time.Time
}

// Lease is a write lease on one memory entry (spec §12.8.3).
type Lease struct {
	Resource  string    `json:"resource"`
	MemoryRef string    `json:"memory_ref"`
	Key       string    `json:"key"`
	Holder    string    `json:"holder"`
	Token     int64     `json:"fencing_token"`
	GrantedAt time.Time `json:"granted_at"`
	ExpiresAt time.Time `json:"expires_at"`
	Released  bool      `json:"released,omitempty"`
}

// WorkspaceOpen is the status of a workspace that still takes writes.
const WorkspaceOpen = "OPEN"

// Workspace is an agent's copy-on-write workspace over a shared memoryRef (spec §12.8.4).
type Workspace struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Ref       string          `json:"ref"`
	BaseRef   string          `json:"base_ref"`
	Owner     string          `json:"owner"`
	BaseLSN   int64           `json:"base_lsn"`
	Status    string          `json:"status"`
	Request   json.RawMessage `json:"merge_request,omitempty"`
	DecidedBy string          `json:"decided_by,omitempty"`
	CreatedAt time.Time       `json:"created_at"`
}

// WriteRequest is a memory write request (spec §12.1.3), as agents and
// hosts send it: snake_case JSON.
type WriteRequest struct {
	RequestID        string              `json:"request_id,omitempty"`
	SourceAgentID    string              `json:"source_agent_id"`
	MemoryRef        string              `json:"memory_ref"`
	Key              string              `json:"key,omitempty"`
	TargetLayer      Layer               `json:"target_layer"`
	Content          json.RawMessage     `json:"content"`
	Tags             []string            `json:"tags,omitempty"`
	EvidenceRefs     []oplog.EvidenceRef `json:"evidence_refs,omitempty"`
	Confidence       *float64            `json:"confidence,omitempty"`
	ObservationType  string              `json:"observation_type,omitempty"`
	Classification   string              `json:"classification,omitempty"`
	TTLSeconds       *int64              `json:"ttl_seconds,omitempty"`
	IdempotencyToken string              `json:"idempotency_token,omitempty"`
	Deadline         *time.Time          `json:"deadline,omitempty"`
	RunID            string              `json:"run_id,omitempty"`
	SessionID        string              `json:"session_id,omitempty"`
	Residency        string              `json:"residency,omitempty"`
	// FencingToken is the token of the write lease the writer holds on
	// memory_ref#key (`memgov lease acquire` prints it, spec §12.8.3).
	FencingToken *int64 `json:"fencing_token,omitempty"`

	Raw []byte `json:"-"` // the request as received, for the schema gate
}

// MaxRequestBytes bounds one encoded write request.
const MaxRequestBytes = 1 << 20

// DecodeWriteRequest decodes one JSON write request. Unknown fields and
// trailing data are errors, as are JSON that decoding would change (a lone
// surrogate escape, an integer a JSON number cannot carry exactly) and a
// key CheckKey refuses; the schema gate reports field-level problems.
func DecodeWriteRequest(raw []byte) (WriteRequest, error) {
	var r WriteRequest
	if len(raw) > MaxRequestBytes {
		return r, fmt.Errorf("%w: the request is %d bytes; the limit is %d", ErrInvalid, len(raw), MaxRequestBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return r, fmt.Errorf("%w: the request is not a valid write request: %v", ErrInvalid, err)
	}
	if dec.More() {
		return r, Inputf(ErrInvalid, "request", "unexpected data after the request")
	}
	if err := CheckExactJSON("the request", raw); err != nil {
		return r, err
	}
	if err := CheckKey(r.Key); err != nil {
		return r, err
	}
	r.Raw = append([]byte(nil), bytes.TrimSpace(raw)...)
	return r, nil
}

// Reason codes of write outcomes.
const (
	ReasonApprovalTimeout = "APPROVAL_TIMEOUT"
)

// WriteResult is what a write returns to the agent or host.
type WriteResult struct {
	Status          string   `json:"status"`
	Reason          string   `json:"reason,omitempty"`
	Gate            string   `json:"gate,omitempty"`
	ItemID          string   `json:"item_id,omitempty"`
	VersionID       string   `json:"version_id,omitempty"`
	ReviewID        string   `json:"review_id,omitempty"`
	RetryAfter      *float64 `json:"retry_after,omitempty"` // seconds
	ValidationScore *float64 `json:"validation_score,omitempty"`
	RiskScore       *float64 `json:"risk_score,omitempty"`

	Key     string   `json:"key,omitempty"`
	Tier    string   `json:"tier,omitempty"`
	Detail  string   `json:"detail,omitempty"`
	Related []string `json:"related,omitempty"` // contradicting or duplicate item keys
	Alerts  []string `json:"alerts,omitempty"`
	LSN     int64    `json:"lsn,omitempty"`
	// NeedsVerification flags a low-confidence write (spec §14.4): readers
	// see the flag, and a curator sees it in the review.
	NeedsVerification bool `json:"needs_verification,omitempty"`
	// Rule names the judge rule that decided a duplicate, a merge or a
	// near-duplicate link (a row of judge.RuleTable, as `memgov judge
	// --rules` lists them), and RuleWords the words that fired it.
	Rule      string   `json:"rule,omitempty"`
	RuleWords []string `json:"rule_words,omitempty"`
	// Links are the near texts a committed write was kept beside as its
	// own item (relation NEAR_DUPLICATE), each with its rule.
	Links []RelatedItem `json:"links,omitempty"`
	// NextAction is what lifts a refusal (register the agent, acknowledge
	// the drift, ...), which Detail says in a phrase; the CLI names the
	// command that does it.
	NextAction NextAction `json:"next_action,omitempty"`
}

// Accepted reports whether the write is (or already was) in memory.
func (r WriteResult) Accepted() bool {
	return r.Status == StatusCommitted || r.Status == StatusMerged || r.Status == StatusAlreadyCommitted
}
