package memgov

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/memgov/memgov/engine/oplog"
)

// ItemReader reads memory items and their versions: by identity, by key, an
// item's history, and the versions visible now or at a past LSN.
type ItemReader interface {
	// Item returns the item with id; an unknown id is ErrNotFound.
	Item(ctx context.Context, id string) (Item, error)
	// ItemByKey returns the item of ref with key (in any state, including an
	// item with no head version); none is ErrNotFound.
	ItemByKey(ctx context.Context, ref, key string) (Item, error)
	// Version returns the version with id in whatever state it is; an unknown
	// id is ErrNotFound.
	Version(ctx context.Context, id string) (Version, error)
	// History returns every version of an item, newest (highest Seq) first;
	// an unknown item has an empty history.
	History(ctx context.Context, itemID string) ([]Version, error)
	// Active returns q.MemoryRef's versions that were ACTIVE at q.AtLSN
	// (ActiveFrom <= AtLSN and ActiveTo either 0 or > AtLSN; AtLSN 0: those
	// ACTIVE now) that have not expired at q.Now (when set), with q.Tag among
	// their tags (when set) and a key after q.AfterKey, ordered by key (byte
	// order), at most q.Limit (0: all).
	Active(ctx context.Context, q ActiveQuery) ([]Version, error)
	// Refs lists every memoryRef that has items, ordered by memoryRef, with
	// its number of items and of items that have a head version.
	Refs(ctx context.Context) ([]RefSummary, error)
	// DueExpiries returns the ACTIVE versions of ref whose TTL has passed at
	// now (expires_at <= now), ordered by key, at most limit (0: all).
	DueExpiries(ctx context.Context, ref string, now time.Time, limit int) ([]Version, error)
	// IndexedVersions returns ref's ACTIVE versions (with all, ACTIVE and
	// SUPERSEDED ones) with their stored embeddings, newest (highest
	// CreatedLSN) first, at most limit.
	IndexedVersions(ctx context.Context, ref string, all bool, limit int) ([]IndexedVersion, error)
	// SearchStamp returns what changes whenever the versions of ref (their
	// states, contents or indexes) may have changed: the LSN of the last log
	// entry of ref and of the last erasure (0 when none).
	SearchStamp(ctx context.Context, ref string) (SearchStamp, error)
	// SearchChanges returns the items of ref that log entries after LSN
	// since name, or whose versions were created, became ACTIVE or stopped
	// being ACTIVE after it, with the ACTIVE and SUPERSEDED versions of those
	// items as IndexedVersions returns them (at most limit).
	SearchChanges(ctx context.Context, ref string, since int64, limit int) (items []string, versions []IndexedVersion, err error)
}

// SearchStamp marks the state of a memoryRef's versions (ReadTx.SearchStamp).
type SearchStamp struct {
	Ref    int64 // the LSN of the last log entry of the ref
	Erased int64 // the LSN of the last erasure, of any ref
}

// IndexedVersion is a version with its stored embedding (similar.Vector
// encoding; nil when the version was never indexed).
type IndexedVersion struct {
	Version
	Embedding []byte
}

// ActiveQuery selects visible versions.
type ActiveQuery struct {
	MemoryRef string
	Tag       string
	AtLSN     int64     // 0: the current state
	Now       time.Time // entries expired at this time are not returned
	Limit     int       // 0: no limit
	AfterKey  string    // keyset paging
}

// RefSummary counts the items of one memoryRef.
type RefSummary struct {
	MemoryRef string `json:"memory_ref"`
	Items     int    `json:"items"`
	Active    int    `json:"active"`
}

// Layer is a memory layer (spec §12.1.4).
type Layer string

// The memory layers, from ephemeral to canonical.
const (
	Working    Layer = "WORKING"
	Session    Layer = "SESSION"
	Episodic   Layer = "EPISODIC"
	Semantic   Layer = "SEMANTIC"
	Procedural Layer = "PROCEDURAL"
)

// Layers lists every layer in durability order.
var Layers = []Layer{Working, Session, Episodic, Semantic, Procedural}

// ParseLayer accepts a layer name in any case.
func ParseLayer(s string) (Layer, error) {
	for _, l := range Layers {
		if equalFold(string(l), s) {
			return l, nil
		}
	}
	return "", fmt.Errorf("unknown layer %q (want one of WORKING, SESSION, EPISODIC, SEMANTIC, PROCEDURAL)", s)
}

// Durable reports whether the layer outlives a session.
func (l Layer) Durable() bool { return l == Episodic || l == Semantic || l == Procedural }

// State is the state of one version (spec §12.5.3).
type State string

// Version states.
const (
	Draft       State = "DRAFT"
	Active      State = "ACTIVE"
	Superseded  State = "SUPERSEDED"
	Retracted   State = "RETRACTED"
	Expired     State = "EXPIRED"
	Quarantined State = "QUARANTINED"
)

// Item is a memory item: a stable identity whose content lives in versions.
type Item struct {
	ID             string    `json:"item_id"`
	MemoryRef      string    `json:"memory_ref"`
	Key            string    `json:"key"`
	Layer          Layer     `json:"layer"`
	Head           string    `json:"head_version_id,omitempty"` // the ACTIVE version, if any
	Pinned         bool      `json:"pinned"`
	Classification string    `json:"classification,omitempty"`
	CreatedAt      time.Time `json:"created_at"`
	UpdatedAt      time.Time `json:"updated_at"`
}

// Version is one immutable version of an item.
type Version struct {
	ID              string          `json:"version_id"`
	ItemID          string          `json:"item_id"`
	MemoryRef       string          `json:"memory_ref"`
	Key             string          `json:"key"`
	Layer           Layer           `json:"layer"`
	Seq             int             `json:"seq"` // 1 for the first version of an item
	Prev            string          `json:"previous_version_id,omitempty"`
	MergedFrom      string          `json:"merged_from,omitempty"`
	State           State           `json:"state"`
	Content         json.RawMessage `json:"content"` // RFC 8785 canonical JSON object
	ContentHash     string          `json:"content_hash"`
	Tags            []string        `json:"tags"`
	Confidence      float64         `json:"confidence"`
	ValidationScore float64         `json:"validation_score"`
	Classification  string          `json:"classification,omitempty"`
	CreatedBy       string          `json:"created_by"`
	CreatedAt       time.Time       `json:"created_at"`
	CreatedLSN      int64           `json:"created_lsn"`
	ActiveFrom      int64           `json:"active_from_lsn,omitempty"` // LSN at which it became ACTIVE
	ActiveTo        int64           `json:"active_to_lsn,omitempty"`   // LSN at which it stopped being ACTIVE
	ExpiresAt       *time.Time      `json:"expires_at,omitempty"`
	Reason          string          `json:"reason,omitempty"` // why the version exists (from its log entry)
	// Source is the provenance class of the write that made it (spec §14:
	// user_stated, tool_verified, agent_inferred, recalled); "" before
	// memgov recorded it.
	Source string `json:"source,omitempty"`
}

// Text returns content.text, the human-readable body of the version, for
// display: a content that is not valid JSON (a corrupt row) reads as "".
// Paths that read stored versions and can report an error use ContentText,
// which names the row instead.
func (v Version) Text() string {
	t, _ := v.ContentText()
	return t
}

// ContentText returns content.text, the human-readable body of the version.
// A stored content that is not valid JSON is an error naming the version
// (corrupt stored data); no content, or content without a text string, has
// no text.
func (v Version) ContentText() (string, error) {
	var c struct {
		Text string `json:"text"`
	}
	err := v.DecodeContent(&c)
	return c.Text, err
}

// DecodeContent decodes the version's content into dst (see DecodeStored).
func (v Version) DecodeContent(dst any) error {
	return DecodeStored("versions.content of row "+v.ID, v.Content, dst)
}

// DecodeStored decodes stored JSON, what names (the table, column and row,
// or the log entry), into dst. Stored JSON that is not valid JSON is
// corrupt: an error naming what, never a zero value. Valid JSON of another
// shape than dst leaves the fields it lacks unset, as does no JSON at all
// (a NULL column).
func DecodeStored(what string, raw []byte, dst any) error {
	if len(raw) == 0 {
		return nil
	}
	if !json.Valid(raw) {
		return fmt.Errorf("corrupt stored data: %s is not valid JSON; verifying the log names what else differs from it", what)
	}
	var te *json.UnmarshalTypeError
	if err := json.Unmarshal(raw, dst); err != nil && !errors.As(err, &te) {
		return fmt.Errorf("corrupt stored data: %s: %w", what, err)
	}
	return nil
}

// ExpiredAt reports whether the version is past its TTL at t (millisecond granularity).
func (v Version) ExpiredAt(t time.Time) bool {
	return v.ExpiresAt != nil && !t.Truncate(time.Millisecond).Before(v.ExpiresAt.Truncate(time.Millisecond))
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// PutRequest is an ungated write: it commits a version directly, without the
// governed pipeline. It exists for tests and trusted loaders; agents write
// through Write.
type PutRequest struct {
	MemoryRef      string
	Key            string // empty: a new item with a generated key
	Layer          Layer
	Content        json.RawMessage // a JSON object with a "text" string
	Tags           []string
	Confidence     float64
	Classification string
	TTL            time.Duration // 0: no expiry
	Actor          string
	Reason         string
	Evidence       []oplog.EvidenceRef // recorded as the version's evidence (MEMORY_ITEM citations are indexed)
}

// PutResult identifies what a write committed.
type PutResult struct {
	ItemID    string `json:"item_id"`
	VersionID string `json:"version_id"`
	Key       string `json:"key"`
	LSN       int64  `json:"lsn"`
}

// ReadQuery selects what a read returns.
type ReadQuery struct {
	MemoryRef string
	Tag       string
	Limit     int
	AfterKey  string
	AtLSN     int64     // 0: now
	AtTime    time.Time // zero: now; otherwise resolved to the last LSN at or before it
}

// Snapshot is the visible memory of a memoryRef at one log position.
type Snapshot struct {
	MemoryRef string    `json:"memory_ref"`
	LSN       int64     `json:"lsn"`
	Time      time.Time `json:"time"`
	Versions  []Version `json:"items"`
}

// RollbackResult reports what a rollback did (spec §12.5.6).
type RollbackResult struct {
	Status          string `json:"status"` // ROLLED_BACK_WITH_REACTIVATION or ROLLED_BACK_NO_PREDECESSOR
	ItemID          string `json:"item_id"`
	RetractedID     string `json:"retracted_version_id"`
	RestoredFrom    string `json:"restored_from_version_id,omitempty"`
	NewVersionID    string `json:"new_version_id,omitempty"`
	RetractLSN      int64  `json:"retract_lsn"`
	ReactivationLSN int64  `json:"reactivation_lsn,omitempty"`
}
