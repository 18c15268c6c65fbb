// Package policy holds memgov's policy file: every formula weight, threshold
// and table of docs/spec.md as defaults an operator's file can
// override, and the pure functions that apply them.
//
// Section numbers in comments (spec §12.x.y) refer to docs/spec.md: chapter
// 12 is the governed write path, §3.2.6 the agent-manifest baseline binding,
// chapter 13 the memory primitives, chapter 14 the practitioner's rules
// (write criteria, TTLs per observation type, provenance trust levels,
// confidence decay) and chapter 15 the host memory contract. Where the spec
// marks a number as a memgov default, its comment says so.
//
// Enumerations are plain strings so callers can pass their own typed strings:
// layers ("WORKING", "SESSION", "EPISODIC", "SEMANTIC", "PROCEDURAL"), roles
// ("executor", "verifier", "orchestrator", "curator", "operator"),
// classifications ("PII", "BUSINESS", "GENERAL", "PUBLIC") and evidence source
// types ("DOCUMENT", "API_RESPONSE", "TOOL_OUTPUT", "HUMAN_INPUT",
// "AGENT_REASONING", "CODE_EXECUTION", "MEMORY_ITEM"). Lookups match exactly.
//
// Every function takes the time it needs as a parameter; none reads the clock.
package policy

import "time"

// Memory layers (spec §12.1.3 MemoryLayer).
const (
	Working    = "WORKING"
	Session    = "SESSION"
	Episodic   = "EPISODIC"
	Semantic   = "SEMANTIC"
	Procedural = "PROCEDURAL"
)

// Roles of the RBAC matrix (spec §12.8.2). Operator is memgov's on-call role for
// drift acknowledgement; spec §12.8.2 lists it as memgov's addition.
const (
	Executor     = "executor"
	Verifier     = "verifier"
	Orchestrator = "orchestrator"
	Curator      = "curator"
	Operator     = "operator"
)

// Data classifications (spec §12.10.4), ordered here from least to most sensitive.
const (
	Public   = "PUBLIC"
	General  = "GENERAL"
	Business = "BUSINESS"
	PII      = "PII"
)

// Evidence source types (spec §12.4.3 EvidenceSourceType, with MEMORY_ITEM from the
// cycle detection of spec §12.11.4).
const (
	Document       = "DOCUMENT"
	APIResponse    = "API_RESPONSE"
	ToolOutput     = "TOOL_OUTPUT"
	HumanInput     = "HUMAN_INPUT"
	AgentReasoning = "AGENT_REASONING"
	CodeExecution  = "CODE_EXECUTION"
	MemoryItem     = "MEMORY_ITEM"
)

// Approval tiers (spec §12.6.2).
const (
	AutoApprove = "AUTO_APPROVE"
	AsyncReview = "ASYNC_REVIEW"
	SyncBlock   = "SYNC_BLOCK"
)

// Health bands (spec §12.12.7).
const (
	Healthy  = "HEALTHY"
	Degraded = "DEGRADED"
	Critical = "CRITICAL"
)

// Drift policies of a baseline (spec §3.2.6).
const (
	DenyOnDrift  = "deny-on-drift"
	AlertOnDrift = "alert-on-drift"
	LogOnly      = "log-only"
)

// Post-expiry actions of a retention rule (spec §12.10.4).
const (
	HardDeleteAudit   = "HARD_DELETE_AUDIT"
	SoftDeleteArchive = "SOFT_DELETE_ARCHIVE"
	SoftDeleteCold    = "SOFT_DELETE_COLD"
	RelevanceGCOnly   = "RELEVANCE_GC_ONLY"
)

// Policy is the effective policy: the spec's defaults overlaid with an
// operator's file. The zero Policy is not useful; start from Default or Load.
type Policy struct {
	RateLimits      RateLimits              `yaml:"rate_limits" json:"rate_limits"`
	Evidence        EvidenceRules           `yaml:"evidence" json:"evidence"`
	Contradiction   Contradiction           `yaml:"contradiction" json:"contradiction"`
	Dedup           Dedup                   `yaml:"dedup" json:"dedup"`
	Provenance      Provenance              `yaml:"provenance" json:"provenance"`
	ConfidenceDecay ConfidenceDecay         `yaml:"confidence_decay" json:"confidence_decay"`
	Calibration     Calibration             `yaml:"calibration" json:"calibration"`
	Validation      Validation              `yaml:"validation" json:"validation"`
	RiskModel       RiskModel               `yaml:"risk" json:"risk"`
	Review          Review                  `yaml:"review" json:"review"`
	Reputation      Reputation              `yaml:"reputation" json:"reputation"`
	WriteCriteria   WriteCriteria           `yaml:"write_criteria" json:"write_criteria"`
	Decay           Decay                   `yaml:"decay" json:"decay"`
	Retention       PerClass[RetentionRule] `yaml:"retention" json:"retention"`
	Visibility      Visibility              `yaml:"visibility" json:"visibility"`
	RBAC            PerRole[Grants]         `yaml:"rbac" json:"rbac"`
	Baseline        Baseline                `yaml:"baseline" json:"baseline"`
	Retrieval       Retrieval               `yaml:"retrieval" json:"retrieval"`
	Health          Health                  `yaml:"health" json:"health"`
	Residency       Residency               `yaml:"residency" json:"residency"`
	ReferenceOnly   ReferenceOnly           `yaml:"reference_only" json:"reference_only"`
	Promotion       Promotion               `yaml:"promotion" json:"promotion"`
	Models          Models                  `yaml:"models" json:"models"`
	Proposals       Proposals               `yaml:"proposals" json:"proposals"`
}

// Proposal activation modes (spec §15.12): who may apply a proposal.
const (
	// ActivationApprovalGate: a curator of the tenant other than the owner.
	ActivationApprovalGate = "approval-gate"
	// ActivationDirectRBAC: a principal holding the proposal:activate scope.
	ActivationDirectRBAC = "direct-rbac"
)

// Proposals configures agent-authored proposals.
type Proposals struct {
	// Activation is the one mode through which proposals are applied; it is
	// what `memgov capabilities` advertises, and no other mode applies.
	Activation string `yaml:"activation" json:"activation"`
}

// PerLayer holds one value for each memory layer. Fixed fields, rather than
// a map, let a policy file override one field of one layer and keep the rest,
// and make a misspelt layer an error.
type PerLayer[T any] struct {
	Working    T `yaml:"WORKING" json:"WORKING"`
	Session    T `yaml:"SESSION" json:"SESSION"`
	Episodic   T `yaml:"EPISODIC" json:"EPISODIC"`
	Semantic   T `yaml:"SEMANTIC" json:"SEMANTIC"`
	Procedural T `yaml:"PROCEDURAL" json:"PROCEDURAL"`
}

// Get returns the value for layer, and false if layer is not a memory layer.
func (p PerLayer[T]) Get(layer string) (T, bool) {
	switch layer {
	case Working:
		return p.Working, true
	case Session:
		return p.Session, true
	case Episodic:
		return p.Episodic, true
	case Semantic:
		return p.Semantic, true
	case Procedural:
		return p.Procedural, true
	}
	var zero T
	return zero, false
}

func (p PerLayer[T]) each(f func(layer string, v T)) {
	f(Working, p.Working)
	f(Session, p.Session)
	f(Episodic, p.Episodic)
	f(Semantic, p.Semantic)
	f(Procedural, p.Procedural)
}

// PerRole holds one value for each role.
type PerRole[T any] struct {
	Executor     T `yaml:"executor" json:"executor"`
	Verifier     T `yaml:"verifier" json:"verifier"`
	Orchestrator T `yaml:"orchestrator" json:"orchestrator"`
	Curator      T `yaml:"curator" json:"curator"`
	Operator     T `yaml:"operator" json:"operator"`
}

// Get returns the value for role, and false if role is not a known role.
func (p PerRole[T]) Get(role string) (T, bool) {
	switch role {
	case Executor:
		return p.Executor, true
	case Verifier:
		return p.Verifier, true
	case Orchestrator:
		return p.Orchestrator, true
	case Curator:
		return p.Curator, true
	case Operator:
		return p.Operator, true
	}
	var zero T
	return zero, false
}

func (p PerRole[T]) each(f func(role string, v T)) {
	f(Executor, p.Executor)
	f(Verifier, p.Verifier)
	f(Orchestrator, p.Orchestrator)
	f(Curator, p.Curator)
	f(Operator, p.Operator)
}

// PerClass holds one value for each data classification.
type PerClass[T any] struct {
	PII      T `yaml:"PII" json:"PII"`
	Business T `yaml:"BUSINESS" json:"BUSINESS"`
	General  T `yaml:"GENERAL" json:"GENERAL"`
	Public   T `yaml:"PUBLIC" json:"PUBLIC"`
}

// Get returns the value for classification, and false if it is unknown.
func (p PerClass[T]) Get(classification string) (T, bool) {
	switch classification {
	case PII:
		return p.PII, true
	case Business:
		return p.Business, true
	case General:
		return p.General, true
	case Public:
		return p.Public, true
	}
	var zero T
	return zero, false
}

func (p PerClass[T]) each(f func(classification string, v T)) {
	f(PII, p.PII)
	f(Business, p.Business)
	f(General, p.General)
	f(Public, p.Public)
}

// PerSource holds one value for each evidence source type.
type PerSource[T any] struct {
	Document       T `yaml:"DOCUMENT" json:"DOCUMENT"`
	APIResponse    T `yaml:"API_RESPONSE" json:"API_RESPONSE"`
	ToolOutput     T `yaml:"TOOL_OUTPUT" json:"TOOL_OUTPUT"`
	HumanInput     T `yaml:"HUMAN_INPUT" json:"HUMAN_INPUT"`
	AgentReasoning T `yaml:"AGENT_REASONING" json:"AGENT_REASONING"`
	CodeExecution  T `yaml:"CODE_EXECUTION" json:"CODE_EXECUTION"`
	MemoryItem     T `yaml:"MEMORY_ITEM" json:"MEMORY_ITEM"`
}

// Get returns the value for sourceType, and false if it is unknown.
func (p PerSource[T]) Get(sourceType string) (T, bool) {
	switch sourceType {
	case Document:
		return p.Document, true
	case APIResponse:
		return p.APIResponse, true
	case ToolOutput:
		return p.ToolOutput, true
	case HumanInput:
		return p.HumanInput, true
	case AgentReasoning:
		return p.AgentReasoning, true
	case CodeExecution:
		return p.CodeExecution, true
	case MemoryItem:
		return p.MemoryItem, true
	}
	var zero T
	return zero, false
}

func (p PerSource[T]) each(f func(sourceType string, v T)) {
	f(Document, p.Document)
	f(APIResponse, p.APIResponse)
	f(ToolOutput, p.ToolOutput)
	f(HumanInput, p.HumanInput)
	f(AgentReasoning, p.AgentReasoning)
	f(CodeExecution, p.CodeExecution)
	f(MemoryItem, p.MemoryItem)
}

// RateLimits bounds writes per agent (spec §12.1.8, §12.11.2).
type RateLimits struct {
	// Layers is limit(a, l): the writes one agent may make to a layer within
	// a trailing window.
	Layers PerLayer[RateLimit] `yaml:"layers" json:"layers"`
	// SessionBudget is B_write(a.role) of spec §12.11.2: the most writes one agent
	// of the role may make in one session.
	SessionBudget PerRole[int] `yaml:"session_budget" json:"session_budget"`
	// BackoffBase is the first delay of the exponential backoff a deferred
	// write is given (spec §12.1.8).
	BackoffBase Duration `yaml:"backoff_base" json:"backoff_base"`
	// BackoffMax caps the backoff delay.
	BackoffMax Duration `yaml:"backoff_max" json:"backoff_max"`
}

// RateLimit is a number of writes admitted per trailing window.
type RateLimit struct {
	Writes int      `yaml:"writes" json:"writes"`
	Window Duration `yaml:"window" json:"window"`
}

// EvidenceRules drives the factual verification gate (spec §12.2.3) and the
// evidence guards against hallucinated and circular memories (spec §12.11.3,
// spec §12.11.4).
type EvidenceRules struct {
	// Authority is authority(e) for evidence that states none.
	Authority PerSource[float64] `yaml:"authority" json:"authority"`
	// ClassWeights adjusts alpha_i per evidence class; the alphas are
	// normalised so they sum to |E| (spec §12.2.3).
	ClassWeights PerSource[float64] `yaml:"class_weights" json:"class_weights"`
	// FreshnessHalfLife sets lambda of freshness(e) = exp(-lambda*age) as
	// ln 2 / half-life; zero means evidence does not go stale.
	FreshnessHalfLife PerLayer[Duration] `yaml:"freshness_half_life" json:"freshness_half_life"`
	// Threshold is tau_fact(l): the least V_fact a write to the layer needs.
	Threshold PerLayer[float64] `yaml:"threshold" json:"threshold"`
	// MinAuthority is alpha_min(l) of spec §12.11.3: the least authority any one
	// piece of evidence may have.
	MinAuthority PerLayer[float64] `yaml:"min_authority" json:"min_authority"`
	// MinExternal is the number of external evidence references a write to
	// the layer needs (spec §12.11.4 evidence diversity).
	MinExternal PerLayer[int] `yaml:"min_external" json:"min_external"`
	// External lists the source types that count as external (spec §12.11.4).
	External []string `yaml:"external" json:"external"`
	// SelfReferential lists the source types that originate from the
	// writing agent itself (spec §12.11.3).
	SelfReferential []string `yaml:"self_referential" json:"self_referential"`
	// NoSelfReference lists the layers where no evidence may be
	// self-referential (spec §12.11.3).
	NoSelfReference []string `yaml:"no_self_reference" json:"no_self_reference"`
	// SupportWithoutExcerpt is support(m, e) for evidence that quotes no
	// excerpt: below 1, since nothing shows the source states the claim.
	SupportWithoutExcerpt float64 `yaml:"support_without_excerpt" json:"support_without_excerpt"`
	// PartialSupport caps support(m, e) for an excerpt that leaves some of
	// the claim's key terms unstated: what the excerpt does not say, it
	// does not support. Below every layer's factual threshold, such a
	// write goes to a person instead of committing on its own.
	PartialSupport float64 `yaml:"partial_support" json:"partial_support"`
	// Sources is the registry of evidence sources: the most authority
	// evidence from a source URI prefix may claim. A request claiming more
	// gets the grant; a source no prefix matches gets Authority's default
	// for its type.
	Sources []SourceGrant `yaml:"sources" json:"sources"`
}

// Contradiction drives the contradiction gate (spec §12.2.4).
type Contradiction struct {
	// TopicSimilarity is sigma_topic: only items with a cosine similarity
	// above it are compared.
	TopicSimilarity float64 `yaml:"topic_similarity" json:"topic_similarity"`
	// NLIScore is the least NLI contradiction score that counts.
	NLIScore float64 `yaml:"nli_score" json:"nli_score"`
	// Candidates is top_k of the semantic neighbourhood query.
	Candidates int `yaml:"candidates" json:"candidates"`
	// SingleValued lists the relations that hold one value at a time for a
	// subject (born in, capital of, lives in, prefers, limit, CEO of): another
	// value contradicts. MultiValued lists those that hold many (speaks,
	// likes, visited). Relations are named as the judge reads them ("live
	// in", "capital", "ceo"); a relation in neither list keeps the judge's
	// default.
	SingleValued []string `yaml:"single_valued" json:"single_valued"`
	MultiValued  []string `yaml:"multi_valued" json:"multi_valued"`
}

// Dedup drives the three-tier deduplication gate (spec §12.3).
type Dedup struct {
	// Semantic is 1 - epsilon_dedup: a candidate at or above this cosine
	// similarity is a near-duplicate, to be rejected, merged, or deferred
	// when it conflicts on fields.
	Semantic float64 `yaml:"semantic" json:"semantic"`
	// Neighbours is top_k of the nearest-neighbour query.
	Neighbours int `yaml:"neighbours" json:"neighbours"`
	// Lexical is the tier-3 threshold on the words two texts share once
	// normalised (the Dice coefficient of judge.Similarity): a candidate at
	// or above it is a near-duplicate too, resolved by what the write adds
	// and leaves out. 0 turns the lexical tier off.
	Lexical float64 `yaml:"lexical" json:"lexical"`
}

// Provenance holds the trust levels of memory sources (spec §14.4).
type Provenance struct {
	// Trust maps a source to the confidence a write from it starts with.
	Trust map[string]float64 `yaml:"trust" json:"trust"`
	// DefaultTrust is the trust of a source not in Trust.
	DefaultTrust float64 `yaml:"default_trust" json:"default_trust"`
	// VerifyBelow flags writes with a lower confidence for verification.
	VerifyBelow float64 `yaml:"verify_below" json:"verify_below"`
	// VerifyTTL is the lifetime of the needs-verification flag.
	VerifyTTL Duration `yaml:"verify_ttl" json:"verify_ttl"`
	// StaleAfter and StaleBelow: an entry older than StaleAfter with a
	// confidence below StaleBelow is surfaced for review, not used silently.
	StaleAfter Duration `yaml:"stale_after" json:"stale_after"`
	StaleBelow float64  `yaml:"stale_below" json:"stale_below"`
}

// ConfidenceDecay lowers the confidence of unconfirmed inferences over time
// and evicts them below a floor (spec §14.7).
type ConfidenceDecay struct {
	// Sources lists the provenance sources that decay.
	Sources []string `yaml:"sources" json:"sources"`
	// Rate is subtracted once per Interval.
	Rate     float64  `yaml:"rate" json:"rate"`
	Interval Duration `yaml:"interval" json:"interval"`
	// EvictBelow evicts an entry whose confidence falls below it.
	EvictBelow float64 `yaml:"evict_below" json:"evict_below"`
}

// Calibration holds the betas of the adjusted confidence c_adj (spec §12.4.4).
type Calibration struct {
	Agent         float64 `yaml:"agent" json:"agent"`
	Factual       float64 `yaml:"factual" json:"factual"`
	Authority     float64 `yaml:"authority" json:"authority"`
	HumanApproved float64 `yaml:"human_approved" json:"human_approved"`
}

// Validation holds the weights of the composite validation score (spec §12.2.5).
type Validation struct {
	Schema        float64 `yaml:"schema" json:"schema"`
	Factual       float64 `yaml:"factual" json:"factual"`
	Contradiction float64 `yaml:"contradiction" json:"contradiction"`
}

// RiskModel drives the risk classification function and approval tiers
// (spec §12.6.2).
type RiskModel struct {
	Weights RiskWeights `yaml:"weights" json:"weights"`
	// Layer is f_layer per target layer.
	Layer PerLayer[float64] `yaml:"layer" json:"layer"`
	// BlastSaturation is the number of downstream consumers at which
	// f_blast reaches 1; f_blast = min(1, consumers / BlastSaturation).
	BlastSaturation int `yaml:"blast_saturation" json:"blast_saturation"`
	// AsyncFrom: R below it is AUTO_APPROVE.
	AsyncFrom float64 `yaml:"async_from" json:"async_from"`
	// SyncFrom: R at or above it is SYNC_BLOCK; between the two,
	// ASYNC_REVIEW.
	SyncFrom float64 `yaml:"sync_from" json:"sync_from"`
}

// RiskWeights are the omegas of R(w) (spec §12.6.2).
type RiskWeights struct {
	Layer         float64 `yaml:"layer" json:"layer"`
	Contradiction float64 `yaml:"contradiction" json:"contradiction"`
	Evidence      float64 `yaml:"evidence" json:"evidence"`
	Confidence    float64 `yaml:"confidence" json:"confidence"`
	BlastRadius   float64 `yaml:"blast_radius" json:"blast_radius"`
	Novelty       float64 `yaml:"novelty" json:"novelty"`
}

// Review holds the human-in-the-loop timings (spec §12.6.4, §12.6.5) and the lease
// bounds for review claims and write locks (spec §12.8.3).
type Review struct {
	// AsyncSLA is t_sla: an ASYNC_REVIEW item not decided by then escalates.
	AsyncSLA Duration `yaml:"async_sla" json:"async_sla"`
	// SyncMaxWait is t_sync_max: a SYNC_BLOCK write waits at most this long
	// and is then rejected (fail-closed).
	SyncMaxWait Duration `yaml:"sync_max_wait" json:"sync_max_wait"`
	// LeaseTTL is the T_lease granted when a holder asks for none.
	LeaseTTL Duration `yaml:"lease_ttl" json:"lease_ttl"`
	// LeaseMaxTTL is the longest lease ever granted.
	LeaseMaxTTL Duration `yaml:"lease_max_ttl" json:"lease_max_ttl"`
}

// Reputation drives agent reputation scoring and write anomaly detection
// (spec §12.11.5).
type Reputation struct {
	// Threshold is theta_rep: agents below it need HITL approval for all
	// writes.
	Threshold float64 `yaml:"threshold" json:"threshold"`
	// MinWrites is the number of judged writes before reputation counts.
	MinWrites int `yaml:"min_writes" json:"min_writes"`
	// BurstWindow and BurstLimit: more than BurstLimit writes by one agent
	// within BurstWindow is a burst, and suspends the agent's writes.
	BurstWindow Duration `yaml:"burst_window" json:"burst_window"`
	BurstLimit  int      `yaml:"burst_limit" json:"burst_limit"`
	// QuarantineWindow is how far back an agent's writes count as recent:
	// when the agent crosses a threshold (a burst, or a contradiction rate
	// of at least QuarantineContradictionRate over at least
	// QuarantineMinWrites writes within the window), its ACTIVE writes of
	// the window are QUARANTINED (spec §12.11.5).
	QuarantineWindow            Duration `yaml:"quarantine_window" json:"quarantine_window"`
	QuarantineContradictionRate float64  `yaml:"quarantine_contradiction_rate" json:"quarantine_contradiction_rate"`
	QuarantineMinWrites         int      `yaml:"quarantine_min_writes" json:"quarantine_min_writes"`
}

// WriteCriteria decides which observation types are worth storing, and for
// how long (spec §14.2). Types not listed
// are denied.
type WriteCriteria struct {
	// Allowed lists the observation types each layer admits; "*" admits
	// every type.
	Allowed PerLayer[[]string] `yaml:"allowed" json:"allowed"`
	// TTL is the lifetime of a stored observation by type; zero means it
	// does not expire.
	TTL map[string]Duration `yaml:"ttl" json:"ttl"`
}

// Decay drives relevance decay and garbage collection (spec §12.7.2, §12.7.3,
// spec §12.7.5).
type Decay struct {
	Layers PerLayer[LayerDecay] `yaml:"layers" json:"layers"`
	// AccessWindow is Delta t of n_access(m, Delta t).
	AccessWindow Duration `yaml:"access_window" json:"access_window"`
	// Grace is T_grace: how long an EXPIRED item stays recoverable before
	// it is hard deleted.
	Grace Duration `yaml:"grace" json:"grace"`
}

// LayerDecay is one row of the GC table of spec §12.7.3.
type LayerDecay struct {
	// LambdaPerDay is lambda_t in day^-1.
	LambdaPerDay float64 `yaml:"lambda_per_day" json:"lambda_per_day"`
	// GCThreshold is tau_gc(l).
	GCThreshold float64 `yaml:"gc_threshold" json:"gc_threshold"`
	// Idle is T_idle(l).
	Idle Duration `yaml:"idle" json:"idle"`
	// SessionScoped layers are cleared at session end rather than collected
	// by relevance.
	SessionScoped bool `yaml:"session_scoped" json:"session_scoped"`
}

// RetentionRule is one row of the retention table of spec §12.10.4.
type RetentionRule struct {
	// MaxAge is T_max_retention; zero means indefinite.
	MaxAge Duration `yaml:"max_age" json:"max_age"`
	// Action is what happens once MaxAge has passed.
	Action string `yaml:"action" json:"action"`
}

// Visibility orders classifications for clearance checks (spec §12.8.5).
type Visibility struct {
	// Order lists classifications from least to most sensitive; an agent
	// cleared for one may see every classification before it.
	Order []string `yaml:"order" json:"order"`
}

// Grants lists, per operation, the layers a role may act on (spec §12.8.2).
type Grants struct {
	Read       []string `yaml:"read" json:"read"`
	Write      []string `yaml:"write" json:"write"`
	Annotate   []string `yaml:"annotate" json:"annotate"`
	Delete     []string `yaml:"delete" json:"delete"`
	HardDelete []string `yaml:"hard_delete" json:"hard_delete"`
	Approve    []string `yaml:"approve" json:"approve"`
	Admin      []string `yaml:"admin" json:"admin"`
}

// Operations of the RBAC matrix (spec §12.8.2). Delete is a soft delete (EXPIRE or
// RETRACT); HardDelete removes content (erasure, hard delete after grace).
const (
	OpRead       = "read"
	OpWrite      = "write"
	OpAnnotate   = "annotate"
	OpDelete     = "delete"
	OpHardDelete = "hard_delete"
	OpApprove    = "approve"
	OpAdmin      = "admin"
)

func (g Grants) layers(op string) ([]string, bool) {
	switch op {
	case OpRead:
		return g.Read, true
	case OpWrite:
		return g.Write, true
	case OpAnnotate:
		return g.Annotate, true
	case OpDelete:
		return g.Delete, true
	case OpHardDelete:
		return g.HardDelete, true
	case OpApprove:
		return g.Approve, true
	case OpAdmin:
		return g.Admin, true
	}
	return nil, false
}

// The normative bounds of a baseline (spec §3.2.6). The policy file may
// tighten them (a narrower TTL range, fewer drift policies at a level), never
// loosen them: Validate refuses a policy that does, and baseline approval
// applies them whatever the policy says.
const (
	NormativeTTLMin = 3600 * time.Second    // ttl_seconds 3,600 ..
	NormativeTTLMax = 7776000 * time.Second // .. 7,776,000
	DenyLevel       = 2                     // compliance level from which deny-on-drift is required
)

// NormativeDriftPolicy reports whether spec §3.2.6 allows drift policy dp at
// compliance level: any of the three below level 2 (log-only only at levels 0
// and 1), deny-on-drift alone from level 2.
func NormativeDriftPolicy(level int, dp string) bool {
	switch dp {
	case DenyOnDrift:
		return true
	case AlertOnDrift, LogOnly:
		return level < DenyLevel
	}
	return false
}

// Baseline holds the agent-manifest baseline rules (spec §3.2.6).
type Baseline struct {
	// TTLMin and TTLMax bound ttl_seconds of a baseline.
	TTLMin Duration `yaml:"ttl_min" json:"ttl_min"`
	TTLMax Duration `yaml:"ttl_max" json:"ttl_max"`
	// DriftPolicies lists the drift policies each compliance level allows,
	// keyed by the level written as a number ("0", "1", "2").
	DriftPolicies map[string][]string `yaml:"drift_policies" json:"drift_policies"`
	// DeltaBudget is the number of incremental changes a checkpoint may
	// bind before the whole memory map must be re-approved.
	DeltaBudget int `yaml:"delta_budget" json:"delta_budget"`
}

// Retrieval drives hybrid retrieval (spec §13.5 and §13.12, §12.4.6).
type Retrieval struct {
	// RRFK is k of reciprocal rank fusion.
	RRFK float64 `yaml:"rrf_k" json:"rrf_k"`
	// Signals weights each ranked list in the fusion.
	Signals SignalWeights `yaml:"signals" json:"signals"`
	// Utility holds the gammas of U(m, q) (spec §12.4.6).
	Utility UtilityWeights `yaml:"utility" json:"utility"`
	// TokenBudget is the per-layer token budget of injected memory.
	TokenBudget PerLayer[int] `yaml:"token_budget" json:"token_budget"`
}

// SignalWeights weights the ranked lists of hybrid retrieval.
type SignalWeights struct {
	Semantic  float64 `yaml:"semantic" json:"semantic"`
	Structure float64 `yaml:"structure" json:"structure"`
	Recency   float64 `yaml:"recency" json:"recency"`
	// Keyword weighs the Okapi BM25 list of the query's words.
	Keyword float64 `yaml:"keyword" json:"keyword"`
}

// UtilityWeights are the gammas of provenance-weighted retrieval (spec §12.4.6).
type UtilityWeights struct {
	Relevance  float64 `yaml:"relevance" json:"relevance"`
	Confidence float64 `yaml:"confidence" json:"confidence"`
	Freshness  float64 `yaml:"freshness" json:"freshness"`
	Authority  float64 `yaml:"authority" json:"authority"`
}

// Health drives the composite memory health score (spec §12.12.7).
type Health struct {
	Weights HealthWeights `yaml:"weights" json:"weights"`
	// HealthyFrom and DegradedFrom are the band cut-offs.
	HealthyFrom  float64 `yaml:"healthy_from" json:"healthy_from"`
	DegradedFrom float64 `yaml:"degraded_from" json:"degraded_from"`
	// DeployGate blocks a deployment below it (spec §12.12.8).
	DeployGate float64 `yaml:"deploy_gate" json:"deploy_gate"`
	// CorrectnessTarget is the MCI that normalises to 1.
	CorrectnessTarget float64 `yaml:"correctness_target" json:"correctness_target"`
	// PrecisionTarget is the mean MRP that normalises to 1.
	PrecisionTarget float64 `yaml:"precision_target" json:"precision_target"`
	// LeakageCeiling is the HLR that normalises to 0.
	LeakageCeiling float64 `yaml:"leakage_ceiling" json:"leakage_ceiling"`
	// ErrorCeiling is the MIER that normalises to 0.
	ErrorCeiling float64 `yaml:"error_ceiling" json:"error_ceiling"`
	// AcceptanceLow and AcceptanceHigh bound the WAR target range;
	// AcceptanceTolerance is the distance outside it that normalises to 0.
	AcceptanceLow       float64 `yaml:"acceptance_low" json:"acceptance_low"`
	AcceptanceHigh      float64 `yaml:"acceptance_high" json:"acceptance_high"`
	AcceptanceTolerance float64 `yaml:"acceptance_tolerance" json:"acceptance_tolerance"`
}

// HealthWeights are the w_i of H_memory (spec §12.12.7).
type HealthWeights struct {
	CorrectnessImpact    float64 `yaml:"correctness_impact" json:"correctness_impact"`
	RetrievalPrecision   float64 `yaml:"retrieval_precision" json:"retrieval_precision"`
	HallucinationLeakage float64 `yaml:"hallucination_leakage" json:"hallucination_leakage"`
	InducedErrors        float64 `yaml:"induced_errors" json:"induced_errors"`
	WriteAcceptance      float64 `yaml:"write_acceptance" json:"write_acceptance"`
	Operational          float64 `yaml:"operational" json:"operational"`
}

// Residency holds data residency rules (spec §12.10.3).
type Residency struct {
	// StoreRegion is storage_region(m) of this store.
	StoreRegion string `yaml:"store_region" json:"store_region"`
	// Classes maps a residency class to its allowed regions; "*" allows
	// any region.
	Classes map[string][]string `yaml:"classes" json:"classes"`
}

// ReferenceOnly lists canonical sources that memory may reference but never
// copy (spec §13.13).
type ReferenceOnly struct {
	Sources []ReferenceSource `yaml:"sources" json:"sources"`
	// Threshold is the least fraction of a write's character trigrams found
	// in one source that makes the write a copy of it.
	Threshold float64 `yaml:"threshold" json:"threshold"`
}

// ReferenceSource is one canonical source: where it lives, and its text.
type ReferenceSource struct {
	URI  string `yaml:"uri" json:"uri"`
	Text string `yaml:"text" json:"text"`
}

// Promotion holds the episodic-to-semantic promotion rule (spec
// §13.9).
type Promotion struct {
	// Corroborations is N: independent observations needed to promote.
	Corroborations int `yaml:"corroborations" json:"corroborations"`
	// FailedCorroborations is the number of consecutive failed
	// corroborations that archives a semantic entry (spec §13.6).
	FailedCorroborations int `yaml:"failed_corroborations" json:"failed_corroborations"`
}
