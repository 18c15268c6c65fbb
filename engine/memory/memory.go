// Package memory holds the domain types of governed agent memory that the
// write gates (engine/gate) and the engine share: layers, states, roles and
// principals, items and versions, evidence, candidates and the records the
// write path reads. It imports no other package of memgov except leaf
// packages; engine re-exports every type under its old name.
package memory

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

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

// Role is what a principal may do (spec §12.8.2, plus operator for drift).
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

// DomainsOf reads "domain:X" or "domain=X" tags.
func DomainsOf(tags []string) []string {
	var out []string
	for _, t := range tags {
		for _, pre := range []string{"domain:", "domain="} {
			if v, ok := strings.CutPrefix(t, pre); ok && v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// InDomains reports domain(m) ⊆ domains(a) for memory tagged with tags. A
// principal's "domains" attribute is a comma-separated list; people without
// one see every domain, agents without one only undomained memory.
func (p Principal) InDomains(tags []string) bool {
	ds := DomainsOf(tags)
	if len(ds) == 0 {
		return true
	}
	attr, ok := p.Attributes["domains"]
	if !ok {
		return p.Role.Human()
	}
	allowed := map[string]bool{}
	for _, d := range strings.Split(attr, ",") {
		allowed[strings.TrimSpace(d)] = true
	}
	if allowed["*"] {
		return true
	}
	for _, d := range ds {
		if !allowed[d] {
			return false
		}
	}
	return true
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
	// Source is the provenance class of the write that made it (spec §14:
	// user_stated, tool_verified, agent_inferred, recalled); "" before
	// memgov recorded it.
	Source string `json:"source,omitempty"`
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

// ErrNotFound is the error stores wrap when what was asked for does not exist.
var ErrNotFound = errors.New("not found")

// ValidID reports whether s may name a principal or a tenant: 1-64
// characters of A-Z a-z 0-9 . _ -, and neither "." nor "..".
func ValidID(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return s != "." && s != ".."
}
