// Package engine is memgov's governance core: the domain types of governed agent
// memory, the Store interface the core needs, and the use cases (writes, versioning,
// rollback, pinning, audit) that every door (CLI, TUI, servers) calls.
//
// engine knows nothing of SQL or terminals; store/sqlite implements Store.
package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Layer is a memory layer (seed 001, 12.1.4).
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

// State is the state of one version (seed 001, 12.5.3).
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

// Role is what a principal may do (seed 001, 12.8.2, plus operator for drift).
type Role string

// Roles.
const (
	Executor     Role = "executor"
	Verifier     Role = "verifier"
	Orchestrator Role = "orchestrator"
	Curator      Role = "curator"
	Operator     Role = "operator"
)

// Roles lists every role.
var Roles = []Role{Executor, Verifier, Orchestrator, Curator, Operator}

// ParseRole accepts a role name in any case.
func ParseRole(s string) (Role, error) {
	for _, r := range Roles {
		if equalFold(string(r), s) {
			return r, nil
		}
	}
	return "", fmt.Errorf("unknown role %q (want one of executor, verifier, orchestrator, curator, operator)", s)
}

// Human reports whether the role is held by people who decide reviews or drift.
func (r Role) Human() bool { return r == Curator || r == Operator }

// AllTenants is the tenant of a principal that governs every tenant (an
// installation-wide curator or operator). Agents always belong to one tenant.
const AllTenants = "*"

// Principal is an agent or a person known to memgov.
type Principal struct {
	ID         string            `json:"id"`
	Role       Role              `json:"role"`
	Tenant     string            `json:"tenant"`
	Attributes map[string]string `json:"attributes,omitempty"`
	Suspended  bool              `json:"suspended,omitempty"`
	CreatedAt  time.Time         `json:"created_at"`
}

// Governs reports whether the principal may act on memory of the tenant.
func (p Principal) Governs(tenant string) bool {
	return p.Tenant == AllTenants || p.Tenant == tenant
}

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
}

// Text returns content.text, the human-readable body of the version.
func (v Version) Text() string {
	var c struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(v.Content, &c)
	return c.Text
}

// ExpiredAt reports whether the version is past its TTL at t (millisecond granularity).
func (v Version) ExpiredAt(t time.Time) bool {
	return v.ExpiresAt != nil && !t.Truncate(time.Millisecond).Before(v.ExpiresAt.Truncate(time.Millisecond))
}

// Errors the engine returns; doors map them to messages and exit codes.
var (
	ErrNotFound     = errors.New("not found")
	ErrConflict     = errors.New("conflict")
	ErrInvalid      = errors.New("invalid")
	ErrForbidden    = errors.New("forbidden")
	ErrTampered     = errors.New("audit log does not verify")
	ErrNotInit      = errors.New("database is not initialised")
	ErrSchemaNewer  = errors.New("database schema is newer than this memgov")
	ErrUnauthorized = errors.New("unauthorized")
)

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
