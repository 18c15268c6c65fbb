package policy

import (
	"time"

	"github.com/memgov/memgov/engine/judge"
)

const day = 24 * time.Hour

func dur(d time.Duration) Duration { return Duration(d) }

// Default returns the policy of docs/spec.md. Each number names the spec section
// it comes from; numbers the spec marks as memgov defaults say so.
func Default() Policy {
	return Policy{
		RateLimits: RateLimits{
			// spec §12.1.8 limit(a, l): these are
			// memgov defaults, tighter for the more durable layers.
			Layers: PerLayer[RateLimit]{
				Working:    RateLimit{Writes: 120, Window: dur(time.Minute)}, // memgov default
				Session:    RateLimit{Writes: 60, Window: dur(time.Minute)},  // memgov default
				Episodic:   RateLimit{Writes: 30, Window: dur(time.Minute)},  // memgov default
				Semantic:   RateLimit{Writes: 10, Window: dur(time.Minute)},  // memgov default
				Procedural: RateLimit{Writes: 5, Window: dur(time.Minute)},   // memgov default
			},
			// spec §12.11.2 B_write(a.role); memgov defaults.
			SessionBudget: PerRole[int]{
				Executor:     200,  // memgov default
				Verifier:     100,  // memgov default
				Orchestrator: 500,  // memgov default
				Curator:      1000, // memgov default
				Operator:     1000, // memgov default
			},
			BackoffBase: dur(time.Second),     // spec §12.1.8 exponential backoff; memgov default
			BackoffMax:  dur(5 * time.Minute), // spec §12.1.8; memgov default
		},
		Evidence: EvidenceRules{
			Authority: PerSource[float64]{
				Document:       1.0, // spec §12.2.3 "official documentation -> 1.0"
				APIResponse:    0.9, // memgov default, as spec §14.4 "tool_verified" 0.9
				ToolOutput:     0.9, // spec §14.4 "tool_verified" 0.9
				HumanInput:     1.0, // spec §14.4 "user_stated" 1.0
				AgentReasoning: 0.3, // spec §12.2.3 "LLM-generated -> 0.3"
				CodeExecution:  0.9, // memgov default, as spec §14.4 "tool_verified" 0.9
				MemoryItem:     0.5, // spec §14.4 "recalled" 0.5
			},
			// spec §12.2.3: alpha_i "uniform by default, adjustable per evidence
			// class".
			ClassWeights: PerSource[float64]{
				Document: 1, APIResponse: 1, ToolOutput: 1, HumanInput: 1,
				AgentReasoning: 1, CodeExecution: 1, MemoryItem: 1,
			},
			// spec §12.2.3 lambda (per-layer half-lives): memgov defaults.
			FreshnessHalfLife: PerLayer[Duration]{
				Working:    dur(time.Hour), // memgov default
				Session:    dur(day),       // memgov default
				Episodic:   dur(30 * day),  // memgov default
				Semantic:   dur(90 * day),  // memgov default
				Procedural: dur(180 * day), // memgov default
			},
			Threshold: PerLayer[float64]{
				Working:    0,   // spec §12.1.4 Working: "None (free writes)"
				Session:    0,   // spec §12.1.4 Session: "Schema check only"
				Episodic:   0.6, // spec §12.2.3 tau_fact(EPISODIC) = 0.6
				Semantic:   0.8, // spec §12.2.3 tau_fact(SEMANTIC) = 0.8
				Procedural: 0.9, // spec §12.2.3 tau_fact(PROCEDURAL) = 0.9
			},
			// spec §12.11.3 alpha_min(l); memgov defaults.
			MinAuthority: PerLayer[float64]{
				Working:    0,   // spec §12.1.4 no admission check
				Session:    0,   // spec §12.1.4 schema check only
				Episodic:   0.3, // memgov default
				Semantic:   0.5, // memgov default
				Procedural: 0.5, // memgov default
			},
			// spec §12.11.4: at least one external source "for durable writes";
			// spec §12.1.4 names Episodic, Semantic and Procedural durable.
			MinExternal: PerLayer[int]{
				Working: 0, Session: 0, Episodic: 1, Semantic: 1, Procedural: 1,
			},
			External:        []string{Document, APIResponse, HumanInput}, // spec §12.11.4
			SelfReferential: []string{AgentReasoning},                    // spec §12.11.3
			NoSelfReference: []string{Semantic, Procedural},              // spec §12.11.3
			// memgov default: evidence without an excerpt supports its claim
			// less than evidence whose excerpt states it.
			SupportWithoutExcerpt: 0.9,
			// memgov default: an excerpt that leaves part of the claim
			// unstated ("a cat walks" quoting "a dog walks") does not let
			// the write commit on its own.
			PartialSupport: 0.5,
			Sources:        []SourceGrant{}, // no registry: each type's default authority caps its claims
		},
		Contradiction: Contradiction{
			TopicSimilarity: 0.5,  // spec §12.2.4 "typically sigma_topic >= 0.5"
			NLIScore:        0.85, // spec §12.2.4 ContradictionDetect "nli_result.score > 0.85"
			Candidates:      50,   // spec §12.2.4 ContradictionDetect "top_k=50"
			// memgov defaults: the rule-based judge's (judge.DefaultCardinality).
			SingleValued: defaultRelations(judge.Single),
			MultiValued:  defaultRelations(judge.Multi),
		},
		Dedup: Dedup{
			Semantic:   0.95, // spec §12.3.2 epsilon_dedup = 0.05, cosine similarity 0.95
			Lexical:    0.5,
			Neighbours: 10, // spec §12.3.3 Deduplicate "top_k=10"
		},
		Provenance: Provenance{
			// spec §14.4.
			Trust: map[string]float64{
				"user_stated":    1.0, // spec §14.4
				"tool_verified":  0.9, // spec §14.4
				"agent_inferred": 0.6, // spec §14.4
				"recalled":       0.5, // spec §14.4
			},
			DefaultTrust: 0.5,            // spec §14.4 (any other source: 0.5)
			VerifyBelow:  0.7,            // spec §14.4 "if confidence < 0.7"
			VerifyTTL:    dur(time.Hour), // spec §14.4 needs_verification ttl_seconds=3600
			StaleAfter:   dur(7 * day),   // spec §14.5 "86400 * 7"
			StaleBelow:   0.8,            // spec §14.5 "confidence < 0.8"
		},
		ConfidenceDecay: ConfidenceDecay{
			Sources:    []string{"agent_inferred"}, // spec §14.7
			Rate:       0.05,                       // spec §14.7 rate = 0.05
			Interval:   dur(day),                   // memgov default (spec §14.7)
			EvictBelow: 0.3,                        // spec §14.7 "if new_confidence < 0.3: delete"
		},
		Calibration: Calibration{
			Agent:         0.15, // spec §12.4.4 beta_1
			Factual:       0.30, // spec §12.4.4 beta_2
			Authority:     0.25, // spec §12.4.4 beta_3
			HumanApproved: 0.30, // spec §12.4.4 beta_4
		},
		// spec §12.2.5 weights, w_s + w_f + w_c = 1: memgov defaults.
		Validation: Validation{
			Schema:        0.3, // memgov default
			Factual:       0.4, // memgov default
			Contradiction: 0.3, // memgov default
		},
		RiskModel: RiskModel{
			Weights: RiskWeights{
				Layer:         0.25, // spec §12.6.2 target layer risk
				Contradiction: 0.20, // spec §12.6.2 contradiction presence
				Evidence:      0.15, // spec §12.6.2 evidence quality
				Confidence:    0.15, // spec §12.6.2 confidence gap
				BlastRadius:   0.15, // spec §12.6.2 blast radius
				Novelty:       0.10, // spec §12.6.2 novelty
			},
			Layer: PerLayer[float64]{
				Working:    0.0, // memgov default; spec §12.1.4 Working admits free writes
				Session:    0.1, // memgov default; spec §12.1.4 Session needs a schema check only
				Episodic:   0.3, // spec §12.6.2 EPISODIC=0.3
				Semantic:   0.8, // spec §12.6.2 SEMANTIC=0.8
				Procedural: 1.0, // spec §12.6.2 PROCEDURAL=1.0
			},
			BlastSaturation: 10,  // memgov default; spec §12.6.2 blast-radius saturation
			AsyncFrom:       0.3, // spec §12.6.2 ASYNC_REVIEW if 0.3 <= R
			SyncFrom:        0.7, // spec §12.6.2 SYNC_BLOCK if R >= 0.7
		},
		Review: Review{
			AsyncSLA:    dur(24 * time.Hour),    // spec §12.6.4 t_sla "typically 24-72 hours"
			SyncMaxWait: dur(15 * time.Minute),  // spec §12.6.5 t_sync_max; memgov default
			LeaseTTL:    dur(60 * time.Second),  // spec §12.8.3 T_lease "typically 30-120 seconds"
			LeaseMaxTTL: dur(120 * time.Second), // spec §12.8.3 upper end of "30-120 seconds"
		},
		Reputation: Reputation{
			Threshold:   0.7,              // spec §12.11.5 theta_rep; memgov default
			MinWrites:   20,               // memgov default
			BurstWindow: dur(time.Minute), // spec §12.11.5 "burst writes"; memgov default
			BurstLimit:  60,               // memgov default
			// spec §12.11.5 "suspect items MAY be quarantined"; memgov defaults,
			// the seed gives none.
			QuarantineWindow:            dur(time.Hour),
			QuarantineContradictionRate: 0.5,
			QuarantineMinWrites:         6,
		},
		WriteCriteria: WriteCriteria{
			Allowed: PerLayer[[]string]{
				// spec §12.1.4: Working admits free writes and Session checks the
				// schema only; spec §14.2's criteria govern long-term storage.
				Working: []string{"*"},
				Session: []string{"*"},
				// spec §14.2 (admitted types), placed by spec §14.1's
				// store table: facts and preferences, session summaries
				// (listed in its table and ttl_for), task strategies.
				Episodic:   []string{"user_stated_preference", "tool_result_verified", "task_completion_strategy", "session_summary"},
				Semantic:   []string{"user_stated_preference", "tool_result_verified"},
				Procedural: []string{"task_completion_strategy"},
			},
			// spec §14.3.
			TTL: map[string]Duration{
				"user_stated_preference":   0,             // spec §14.3: permanent until corrected
				"task_completion_strategy": dur(90 * day), // spec §14.3 86400 * 90
				"tool_result_verified":     dur(7 * day),  // spec §14.3 86400 * 7
				"session_summary":          dur(30 * day), // spec §14.3 86400 * 30
			},
		},
		Decay: Decay{
			// spec §12.7.3 GC table.
			Layers: PerLayer[LayerDecay]{
				Working:    LayerDecay{SessionScoped: true},                                          // spec §12.7.3 "auto-cleared at session end"
				Session:    LayerDecay{LambdaPerDay: 12, GCThreshold: 0.1, Idle: dur(time.Hour)},     // spec §12.7.3 0.5 h^-1 = 12 day^-1, tau 0.1, 1 hour
				Episodic:   LayerDecay{LambdaPerDay: 0.01, GCThreshold: 0.2, Idle: dur(30 * day)},    // spec §12.7.3
				Semantic:   LayerDecay{LambdaPerDay: 0.001, GCThreshold: 0.1, Idle: dur(180 * day)},  // spec §12.7.3
				Procedural: LayerDecay{LambdaPerDay: 0.0005, GCThreshold: 0.1, Idle: dur(365 * day)}, // spec §12.7.3
			},
			AccessWindow: dur(30 * day), // spec §12.7.2 Delta t; memgov default
			Grace:        dur(30 * day), // spec §12.7.5 T_grace; memgov default
		},
		Retention: PerClass[RetentionRule]{
			PII:      RetentionRule{MaxAge: dur(90 * day), Action: HardDeleteAudit},     // spec §12.10.4 90 days, hard delete + audit
			Business: RetentionRule{MaxAge: dur(365 * day), Action: SoftDeleteArchive},  // spec §12.10.4 1 year, soft delete -> archive
			General:  RetentionRule{MaxAge: dur(5 * 365 * day), Action: SoftDeleteCold}, // spec §12.10.4 5 years, soft delete -> cold storage
			Public:   RetentionRule{MaxAge: 0, Action: RelevanceGCOnly},                 // spec §12.10.4 indefinite, relevance GC only
		},
		Visibility: Visibility{
			// spec §12.8.5 classification(m) <= clearance(a); the order follows
			// spec §12.10.4's table from open to PII.
			Order: []string{Public, General, Business, PII},
		},
		RBAC:      defaultRBAC(),
		Proposals: Proposals{Activation: ActivationApprovalGate}, // the mode capabilities advertised from the start
		Baseline: Baseline{
			TTLMin: dur(3600 * time.Second),    // spec §3.2.6 minimum 3,600 seconds
			TTLMax: dur(7776000 * time.Second), // spec §3.2.6 maximum 7,776,000 seconds
			DriftPolicies: map[string][]string{
				"0": {DenyOnDrift, AlertOnDrift, LogOnly}, // spec §3.2.6: log-only permitted at Level 0 and 1
				"1": {DenyOnDrift, AlertOnDrift, LogOnly}, // spec §3.2.6
				"2": {DenyOnDrift},                        // spec §3.2.6: deny-on-drift required for Level 2
			},
			DeltaBudget: 64, // spec §3.2.6.2 delta checkpoints; memgov default
		},
		Retrieval: Retrieval{
			RRFK: 60, // spec §13.5 "RRF k=60 is the default"
			Signals: SignalWeights{
				// spec §13.5 RRF over semantic, structure and recency, with
				// memgov's keyword list (BM25) beside them. memgov defaults:
				// recency weighs 0 in the fusion and orders equal scores
				// (newer first), so that it breaks ties rather than outvoting
				// the text; the built-in embeddings (hashed n-grams) weigh half
				// of the keywords, which they otherwise pull down (measured on
				// SQuAD training questions, host/retrieval_corpus_test.go).
				Semantic: 0.5, Structure: 1, Keyword: 1, Recency: 0,
			},
			// spec §12.4.6 gammas: memgov defaults.
			Utility: UtilityWeights{
				Relevance:  0.4, // memgov default
				Confidence: 0.2, // memgov default
				Freshness:  0.2, // memgov default
				Authority:  0.2, // memgov default
			},
			// spec §13.12 per-tier token budgets.
			TokenBudget: PerLayer[int]{
				Working:    8000, // spec §14.9 max_tokens = 8000
				Session:    2000, // memgov default
				Episodic:   2000, // memgov default
				Semantic:   2000, // memgov default
				Procedural: 1000, // memgov default
			},
		},
		Health: Health{
			Weights: HealthWeights{
				CorrectnessImpact:    0.25, // spec §12.12.7
				RetrievalPrecision:   0.20, // spec §12.12.7
				HallucinationLeakage: 0.20, // spec §12.12.7 (inverted)
				InducedErrors:        0.15, // spec §12.12.7 (inverted)
				WriteAcceptance:      0.10, // spec §12.12.7 (distance from target range)
				Operational:          0.10, // spec §12.12.7
			},
			HealthyFrom:         0.8,  // spec §12.12.7 H >= 0.8 HEALTHY
			DegradedFrom:        0.6,  // spec §12.12.7 0.6 <= H < 0.8 DEGRADED
			DeployGate:          0.7,  // spec §12.12.8 block deployment if H < 0.7
			CorrectnessTarget:   0.1,  // memgov default; spec §12.12.7 MCI target
			PrecisionTarget:     0.7,  // spec §12.12.4 target mean MRP >= 0.7
			LeakageCeiling:      0.10, // memgov default: twice spec §12.12.5's 0.05 tightening trigger
			ErrorCeiling:        0.02, // memgov default: twice spec §12.12.5's MIER target 0.01
			AcceptanceLow:       0.4,  // spec §12.12.3 target 0.4 <= WAR
			AcceptanceHigh:      0.8,  // spec §12.12.3 target WAR <= 0.8
			AcceptanceTolerance: 0.4,  // memgov default
		},
		Residency: Residency{
			StoreRegion: "local", // memgov default; spec §12.10.3 store region
			Classes: map[string][]string{
				"ANY": {"*"},  // memgov default
				"EU":  {"eu"}, // memgov default, after spec §12.10.3's "EU data must remain within EU"
				"US":  {"us"}, // memgov default
			},
		},
		ReferenceOnly: ReferenceOnly{
			Sources:   []ReferenceSource{}, // spec §13.13: each deployment declares its own list
			Threshold: 0.8,                 // memgov default
		},
		Promotion: Promotion{
			Corroborations:       3, // spec §13.9 ">= N"; memgov default N
			FailedCorroborations: 3, // spec §13.6 "N consecutive failed"; memgov default N
		},
	}
}

// defaultRBAC is the role matrix of spec §12.8.2. "Own session" covers the
// WORKING and SESSION layers (spec §14.1 scopes in-context, working memory to
// the current session); the ownership and sharing qualifiers are ABAC
// conditions the caller checks. "All layers" lists the five layers.
func defaultRBAC() PerRole[Grants] {
	all := func() []string { return []string{Working, Session, Episodic, Semantic, Procedural} }
	return PerRole[Grants]{
		// spec §12.8.2 Executor Agent: READ own session + shared episodic;
		// WRITE own session only; DELETE none; ADMIN none.
		Executor: Grants{
			Read:       []string{Working, Session, Episodic},
			Write:      []string{Working, Session},
			Annotate:   []string{},
			Delete:     []string{},
			HardDelete: []string{},
			Approve:    []string{},
			Admin:      []string{},
		},
		// spec §12.8.2 Verifier Agent: READ all layers (read-only); WRITE
		// validation annotations only; DELETE none; ADMIN none.
		Verifier: Grants{
			Read:       all(),
			Write:      []string{},
			Annotate:   all(),
			Delete:     []string{},
			HardDelete: []string{},
			Approve:    []string{},
			Admin:      []string{},
		},
		// spec §12.8.2 Orchestrator: READ all layers; WRITE episodic + session;
		// DELETE soft delete; ADMIN layer config.
		Orchestrator: Grants{
			Read:       all(),
			Write:      []string{Working, Session, Episodic},
			Annotate:   []string{},
			Delete:     all(),
			HardDelete: []string{},
			Approve:    []string{},
			Admin:      all(),
		},
		// spec §12.8.2 Curator (Human): READ all; WRITE all; DELETE hard delete;
		// ADMIN full. Curators also annotate (spec §12.7.4 Mode 3) and decide
		// reviews (spec §12.6).
		Curator: Grants{
			Read:       all(),
			Write:      all(),
			Annotate:   all(),
			Delete:     all(),
			HardDelete: all(),
			Approve:    all(),
			Admin:      all(),
		},
		// Operator is memgov's on-call role (spec §12.8.2, memgov's addition): it
		// reads, acknowledges drift by re-approving, rolls back (a soft
		// delete) and configures layers; it neither writes nor erases.
		Operator: Grants{
			Read:       all(),
			Write:      []string{},
			Annotate:   []string{},
			Delete:     all(),
			HardDelete: []string{},
			Approve:    all(),
			Admin:      all(),
		},
	}
}
