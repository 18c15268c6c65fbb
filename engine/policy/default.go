package policy

import "time"

const day = 24 * time.Hour

func dur(d time.Duration) Duration { return Duration(d) }

// Default returns the policy of the seeds. Each number names the section it
// comes from; numbers the seeds leave open are memgov's and say so.
func Default() Policy {
	return Policy{
		RateLimits: RateLimits{
			// 12.1.8 defines limit(a, l) but gives no numbers; these are
			// memgov defaults, tighter for the more durable layers.
			Layers: PerLayer[RateLimit]{
				Working:    RateLimit{Writes: 120, Window: dur(time.Minute)}, // memgov default; the seed gives none
				Session:    RateLimit{Writes: 60, Window: dur(time.Minute)},  // memgov default; the seed gives none
				Episodic:   RateLimit{Writes: 30, Window: dur(time.Minute)},  // memgov default; the seed gives none
				Semantic:   RateLimit{Writes: 10, Window: dur(time.Minute)},  // memgov default; the seed gives none
				Procedural: RateLimit{Writes: 5, Window: dur(time.Minute)},   // memgov default; the seed gives none
			},
			// 12.11.2 B_write(a.role); memgov defaults, the seed gives none.
			SessionBudget: PerRole[int]{
				Executor:     200,  // memgov default; the seed gives none
				Verifier:     100,  // memgov default; the seed gives none
				Orchestrator: 500,  // memgov default; the seed gives none
				Curator:      1000, // memgov default; the seed gives none
				Operator:     1000, // memgov default; the seed gives none
			},
			BackoffBase: dur(time.Second),     // 12.1.8 exponential backoff; memgov default, the seed gives none
			BackoffMax:  dur(5 * time.Minute), // 12.1.8; memgov default, the seed gives none
		},
		Evidence: EvidenceRules{
			Authority: PerSource[float64]{
				Document:       1.0, // 12.2.3 "official documentation -> 1.0"
				APIResponse:    0.9, // memgov default, as seed 004 "tool_verified" 0.9
				ToolOutput:     0.9, // seed 004 PROVENANCE_LEVELS "tool_verified" 0.9
				HumanInput:     1.0, // seed 004 PROVENANCE_LEVELS "user_stated" 1.0
				AgentReasoning: 0.3, // 12.2.3 "LLM-generated -> 0.3"
				CodeExecution:  0.9, // memgov default, as seed 004 "tool_verified" 0.9
				MemoryItem:     0.5, // seed 004 PROVENANCE_LEVELS "recalled" 0.5
			},
			// 12.2.3: alpha_i "uniform by default, adjustable per evidence
			// class".
			ClassWeights: PerSource[float64]{
				Document: 1, APIResponse: 1, ToolOutput: 1, HumanInput: 1,
				AgentReasoning: 1, CodeExecution: 1, MemoryItem: 1,
			},
			// 12.2.3 leaves lambda open; memgov defaults, the seed gives none.
			FreshnessHalfLife: PerLayer[Duration]{
				Working:    dur(time.Hour), // memgov default; the seed gives none
				Session:    dur(day),       // memgov default; the seed gives none
				Episodic:   dur(30 * day),  // memgov default; the seed gives none
				Semantic:   dur(90 * day),  // memgov default; the seed gives none
				Procedural: dur(180 * day), // memgov default; the seed gives none
			},
			Threshold: PerLayer[float64]{
				Working:    0,   // 12.1.4 Working: "None (free writes)"
				Session:    0,   // 12.1.4 Session: "Schema check only"
				Episodic:   0.6, // 12.2.3 tau_fact(EPISODIC) = 0.6
				Semantic:   0.8, // 12.2.3 tau_fact(SEMANTIC) = 0.8
				Procedural: 0.9, // 12.2.3 tau_fact(PROCEDURAL) = 0.9
			},
			// 12.11.3 alpha_min(l); memgov defaults, the seed gives none.
			MinAuthority: PerLayer[float64]{
				Working:    0,   // 12.1.4 no admission check
				Session:    0,   // 12.1.4 schema check only
				Episodic:   0.3, // memgov default; the seed gives none
				Semantic:   0.5, // memgov default; the seed gives none
				Procedural: 0.5, // memgov default; the seed gives none
			},
			// 12.11.4: at least one external source "for durable writes";
			// 12.1.4 names Episodic, Semantic and Procedural durable.
			MinExternal: PerLayer[int]{
				Working: 0, Session: 0, Episodic: 1, Semantic: 1, Procedural: 1,
			},
			External:        []string{Document, APIResponse, HumanInput}, // 12.11.4
			SelfReferential: []string{AgentReasoning},                    // 12.11.3
			NoSelfReference: []string{Semantic, Procedural},              // 12.11.3
		},
		Contradiction: Contradiction{
			TopicSimilarity: 0.5,  // 12.2.4 "typically sigma_topic >= 0.5"
			NLIScore:        0.85, // 12.2.4 ContradictionDetect "nli_result.score > 0.85"
			Candidates:      50,   // 12.2.4 ContradictionDetect "top_k=50"
		},
		Dedup: Dedup{
			Semantic:   0.95, // 12.3.2 epsilon_dedup = 0.05, cosine similarity 0.95
			Neighbours: 10,   // 12.3.3 Deduplicate "top_k=10"
		},
		Provenance: Provenance{
			// seed 004 PROVENANCE_LEVELS.
			Trust: map[string]float64{
				"user_stated":    1.0, // seed 004
				"tool_verified":  0.9, // seed 004
				"agent_inferred": 0.6, // seed 004
				"recalled":       0.5, // seed 004
			},
			DefaultTrust: 0.5,            // seed 004 PROVENANCE_LEVELS.get(source, 0.5)
			VerifyBelow:  0.7,            // seed 004 "if confidence < 0.7"
			VerifyTTL:    dur(time.Hour), // seed 004 needs_verification ttl_seconds=3600
			StaleAfter:   dur(7 * day),   // seed 004 KeyValueMemory.read "86400 * 7"
			StaleBelow:   0.8,            // seed 004 KeyValueMemory.read "confidence < 0.8"
		},
		ConfidenceDecay: ConfidenceDecay{
			Sources:    []string{"agent_inferred"}, // seed 004 decay_confidences
			Rate:       0.05,                       // seed 004 decay_rate = 0.05
			Interval:   dur(day),                   // memgov default; seed 004 runs decay "over time" without a period
			EvictBelow: 0.3,                        // seed 004 "if new_confidence < 0.3: delete"
		},
		Calibration: Calibration{
			Agent:         0.15, // 12.4.4 beta_1
			Factual:       0.30, // 12.4.4 beta_2
			Authority:     0.25, // 12.4.4 beta_3
			HumanApproved: 0.30, // 12.4.4 beta_4
		},
		// 12.2.5 requires w_s + w_f + w_c = 1 and gives no values.
		Validation: Validation{
			Schema:        0.3, // memgov default; the seed gives none
			Factual:       0.4, // memgov default; the seed gives none
			Contradiction: 0.3, // memgov default; the seed gives none
		},
		RiskModel: RiskModel{
			Weights: RiskWeights{
				Layer:         0.25, // 12.6.2 target layer risk
				Contradiction: 0.20, // 12.6.2 contradiction presence
				Evidence:      0.15, // 12.6.2 evidence quality
				Confidence:    0.15, // 12.6.2 confidence gap
				BlastRadius:   0.15, // 12.6.2 blast radius
				Novelty:       0.10, // 12.6.2 novelty
			},
			Layer: PerLayer[float64]{
				Working:    0.0, // memgov default; 12.6.2 gives none, 12.1.4 Working admits free writes
				Session:    0.1, // memgov default; 12.6.2 gives none, 12.1.4 Session needs a schema check only
				Episodic:   0.3, // 12.6.2 EPISODIC=0.3
				Semantic:   0.8, // 12.6.2 SEMANTIC=0.8
				Procedural: 1.0, // 12.6.2 PROCEDURAL=1.0
			},
			BlastSaturation: 10,  // memgov default; 12.6.2 counts consumers without a scale
			AsyncFrom:       0.3, // 12.6.2 ASYNC_REVIEW if 0.3 <= R
			SyncFrom:        0.7, // 12.6.2 SYNC_BLOCK if R >= 0.7
		},
		Review: Review{
			AsyncSLA:    dur(24 * time.Hour),    // 12.6.4 t_sla "typically 24-72 hours"
			SyncMaxWait: dur(15 * time.Minute),  // 12.6.5 t_sync_max; memgov default, the seed gives none
			LeaseTTL:    dur(60 * time.Second),  // 12.8.3 T_lease "typically 30-120 seconds"
			LeaseMaxTTL: dur(120 * time.Second), // 12.8.3 upper end of "30-120 seconds"
		},
		Reputation: Reputation{
			Threshold:   0.7,              // 12.11.5 theta_rep; memgov default, the seed gives none
			MinWrites:   20,               // memgov default; the seed gives none
			BurstWindow: dur(time.Minute), // 12.11.5 "burst writes"; memgov default, the seed gives none
			BurstLimit:  60,               // memgov default; the seed gives none
		},
		WriteCriteria: WriteCriteria{
			Allowed: PerLayer[[]string]{
				// 12.1.4: Working admits free writes and Session checks the
				// schema only; seed 004's criteria govern long-term storage.
				Working: []string{"*"},
				Session: []string{"*"},
				// seed 004 WRITE_CRITERIA (True entries), placed by seed 004's
				// store table: facts and preferences, session summaries
				// (listed in its table and ttl_for), task strategies.
				Episodic:   []string{"user_stated_preference", "tool_result_verified", "task_completion_strategy", "session_summary"},
				Semantic:   []string{"user_stated_preference", "tool_result_verified"},
				Procedural: []string{"task_completion_strategy"},
			},
			// seed 004 MemoryWritePolicy.ttl_for.
			TTL: map[string]Duration{
				"user_stated_preference":   0,             // seed 004 None: permanent until corrected
				"task_completion_strategy": dur(90 * day), // seed 004 86400 * 90
				"tool_result_verified":     dur(7 * day),  // seed 004 86400 * 7
				"session_summary":          dur(30 * day), // seed 004 86400 * 30
			},
		},
		Decay: Decay{
			// 12.7.3 GC table.
			Layers: PerLayer[LayerDecay]{
				Working:    LayerDecay{SessionScoped: true},                                          // 12.7.3 "auto-cleared at session end"
				Session:    LayerDecay{LambdaPerDay: 12, GCThreshold: 0.1, Idle: dur(time.Hour)},     // 12.7.3 0.5 h^-1 = 12 day^-1, tau 0.1, 1 hour
				Episodic:   LayerDecay{LambdaPerDay: 0.01, GCThreshold: 0.2, Idle: dur(30 * day)},    // 12.7.3
				Semantic:   LayerDecay{LambdaPerDay: 0.001, GCThreshold: 0.1, Idle: dur(180 * day)},  // 12.7.3
				Procedural: LayerDecay{LambdaPerDay: 0.0005, GCThreshold: 0.1, Idle: dur(365 * day)}, // 12.7.3
			},
			AccessWindow: dur(30 * day), // 12.7.2 Delta t; memgov default, the seed gives none
			Grace:        dur(30 * day), // 12.7.5 T_grace; memgov default, the seed gives none
		},
		Retention: PerClass[RetentionRule]{
			PII:      RetentionRule{MaxAge: dur(90 * day), Action: HardDeleteAudit},     // 12.10.4 90 days, hard delete + audit
			Business: RetentionRule{MaxAge: dur(365 * day), Action: SoftDeleteArchive},  // 12.10.4 1 year, soft delete -> archive
			General:  RetentionRule{MaxAge: dur(5 * 365 * day), Action: SoftDeleteCold}, // 12.10.4 5 years, soft delete -> cold storage
			Public:   RetentionRule{MaxAge: 0, Action: RelevanceGCOnly},                 // 12.10.4 indefinite, relevance GC only
		},
		Visibility: Visibility{
			// 12.8.5 classification(m) <= clearance(a); the order follows
			// 12.10.4's table from open to PII.
			Order: []string{Public, General, Business, PII},
		},
		RBAC:      defaultRBAC(),
		Proposals: Proposals{Activation: ActivationApprovalGate}, // the mode capabilities advertised from the start
		Baseline: Baseline{
			TTLMin: dur(3600 * time.Second),    // seed 000 minimum 3,600 seconds
			TTLMax: dur(7776000 * time.Second), // seed 000 maximum 7,776,000 seconds
			DriftPolicies: map[string][]string{
				"0": {DenyOnDrift, AlertOnDrift, LogOnly}, // seed 000: log-only permitted at Level 0 and 1
				"1": {DenyOnDrift, AlertOnDrift, LogOnly}, // seed 000
				"2": {DenyOnDrift},                        // seed 000: deny-on-drift required for Level 2
			},
			DeltaBudget: 64, // seed 000 v0.2 delta checkpoints; memgov default, the seed gives none
		},
		Retrieval: Retrieval{
			RRFK: 60, // seed 003 section 5 "RRF k=60 is the default"
			Signals: SignalWeights{
				Semantic: 1, Structure: 1, Recency: 1, // seed 003 section 5 three-signal RRF, unweighted
			},
			// 12.4.6 gives the gammas no values.
			Utility: UtilityWeights{
				Relevance:  0.4, // memgov default; the seed gives none
				Confidence: 0.2, // memgov default; the seed gives none
				Freshness:  0.2, // memgov default; the seed gives none
				Authority:  0.2, // memgov default; the seed gives none
			},
			// seed 003 section 12 asks for per-tier budgets without numbers.
			TokenBudget: PerLayer[int]{
				Working:    8000, // seed 004 InContextMemory max_tokens = 8000
				Session:    2000, // memgov default; the seed gives none
				Episodic:   2000, // memgov default; the seed gives none
				Semantic:   2000, // memgov default; the seed gives none
				Procedural: 1000, // memgov default; the seed gives none
			},
		},
		Health: Health{
			Weights: HealthWeights{
				CorrectnessImpact:    0.25, // 12.12.7
				RetrievalPrecision:   0.20, // 12.12.7
				HallucinationLeakage: 0.20, // 12.12.7 (inverted)
				InducedErrors:        0.15, // 12.12.7 (inverted)
				WriteAcceptance:      0.10, // 12.12.7 (distance from target range)
				Operational:          0.10, // 12.12.7
			},
			HealthyFrom:         0.8,  // 12.12.7 H >= 0.8 HEALTHY
			DegradedFrom:        0.6,  // 12.12.7 0.6 <= H < 0.8 DEGRADED
			DeployGate:          0.7,  // 12.12.8 block deployment if H < 0.7
			CorrectnessTarget:   0.1,  // memgov default; 12.12.5 only asks MCI > 0
			PrecisionTarget:     0.7,  // 12.12.4 target mean MRP >= 0.7
			LeakageCeiling:      0.10, // memgov default: twice 12.12.5's 0.05 tightening trigger
			ErrorCeiling:        0.02, // memgov default: twice 12.12.5's MIER target 0.01
			AcceptanceLow:       0.4,  // 12.12.3 target 0.4 <= WAR
			AcceptanceHigh:      0.8,  // 12.12.3 target WAR <= 0.8
			AcceptanceTolerance: 0.4,  // memgov default; the seed gives none
		},
		Residency: Residency{
			StoreRegion: "local", // memgov default; 12.10.3 names no regions
			Classes: map[string][]string{
				"ANY": {"*"},  // memgov default; the seed gives none
				"EU":  {"eu"}, // memgov default, after 12.10.3's "EU data must remain within EU"
				"US":  {"us"}, // memgov default; the seed gives none
			},
		},
		ReferenceOnly: ReferenceOnly{
			Sources:   []ReferenceSource{}, // seed 003 section 13: each deployment declares its own list
			Threshold: 0.8,                 // memgov default; the seed gives none
		},
		Promotion: Promotion{
			Corroborations:       3, // seed 003 section 9 ">= N"; memgov default N
			FailedCorroborations: 3, // seed 003 section 6 "N consecutive failed"; memgov default N
		},
	}
}

// defaultRBAC is the role matrix of 12.8.2. "Own session" covers the
// WORKING and SESSION layers (seed 004 scopes in-context, working memory to
// the current session); the ownership and sharing qualifiers are ABAC
// conditions the caller checks. "All layers" lists the five layers.
func defaultRBAC() PerRole[Grants] {
	all := func() []string { return []string{Working, Session, Episodic, Semantic, Procedural} }
	return PerRole[Grants]{
		// 12.8.2 Executor Agent: READ own session + shared episodic;
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
		// 12.8.2 Verifier Agent: READ all layers (read-only); WRITE
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
		// 12.8.2 Orchestrator: READ all layers; WRITE episodic + session;
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
		// 12.8.2 Curator (Human): READ all; WRITE all; DELETE hard delete;
		// ADMIN full. Curators also annotate (12.7.4 Mode 3) and decide
		// reviews (12.6).
		Curator: Grants{
			Read:       all(),
			Write:      all(),
			Annotate:   all(),
			Delete:     all(),
			HardDelete: all(),
			Approve:    all(),
			Admin:      all(),
		},
		// Operator is memgov's on-call role (12.8.2 does not name it): it
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
