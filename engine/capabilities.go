package engine

import (
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/host"
)

// Capabilities is what memgov advertises of the memory contract (spec §15.6,
// "Memory capability model"): the existing capability blocks and, under
// dimensions, the eight spec §15.6 dimensions. Every claim is a test; the tests
// that prove each dimension are named beside it and in the output.
type Capabilities struct {
	Memory     MemoryCapabilities `json:"memory"`
	Agents     AgentCapabilities  `json:"agents"`
	MultiAgent struct {
		ExecutionModel struct {
			Version int `json:"version"`
		} `json:"executionModel"`
	} `json:"multiAgent"`
	Dimensions []Dimension `json:"dimensions"`
}

// MemoryCapabilities is capabilities.memory.
type MemoryCapabilities struct {
	Supported bool `json:"supported"`
	Writable  bool `json:"writable"`
	Search    struct {
		Supported bool     `json:"supported"`
		Modes     []string `json:"modes"`
	} `json:"search"`
	Compaction struct {
		Supported bool `json:"supported"`
	} `json:"compaction"`
	Distillation struct {
		Supported      bool   `json:"supported"`
		TokenizerName  string `json:"tokenizerName"`
		MaxTokenBudget int    `json:"maxTokenBudget"`
		IndexEmitted   bool   `json:"indexEmitted"`
	} `json:"distillation"`
	Attribution struct {
		EmitsWriteEvents bool `json:"emitsWriteEvents"`
	} `json:"attribution"`
	Retention struct {
		TTL    bool `json:"ttl"`
		Forget bool `json:"forget"`
	} `json:"retention"`
}

// AgentCapabilities is capabilities.agents.
type AgentCapabilities struct {
	MemoryBackends      []string `json:"memoryBackends"`
	MemoryConsolidation struct {
		Supported bool `json:"supported"`
	} `json:"memoryConsolidation"`
	Commitments struct {
		Supported bool `json:"supported"`
	} `json:"commitments"`
	Proposals struct {
		ArtifactKinds        []string `json:"artifactKinds"`
		DuplicationDetection bool     `json:"duplicationDetection"`
		Activation           string   `json:"activation"`
		ActivationScope      string   `json:"activationScope"`
	} `json:"proposals"`
}

// Dimension is one spec §15.6 dimension with the tests that prove it.
type Dimension struct {
	Name      string   `json:"name"`
	Supported bool     `json:"supported"`
	Tests     []string `json:"tests"`
}

// Capabilities returns what this build supports.
func (e *Engine) Capabilities() Capabilities {
	var c Capabilities
	c.Memory.Supported = true // read: TestContractRoundTrip, TestContractCrossTenantIsolation
	c.Memory.Writable = true  // write: TestContractRoundTrip (Put, Delete)
	c.Memory.Search.Supported = true
	c.Memory.Search.Modes = []string{"semantic", "filter"}   // TestSearchHybridRanking, TestSearchTemporalValidity
	c.Memory.Compaction.Supported = true                     // TestDistillationBudgetAndByteStability
	c.Memory.Distillation.Supported = true                   // TestDistillationBudgetAndByteStability, TestDistillationRedactsAgain
	c.Memory.Distillation.TokenizerName = host.TokenizerName // TestTokenizer
	c.Memory.Distillation.MaxTokenBudget = host.MaxTokenBudget
	c.Memory.Distillation.IndexEmitted = true                       // TestDistillationBudgetAndByteStability
	c.Memory.Attribution.EmitsWriteEvents = true                    // TestAttributionEventsAreContentFree
	c.Memory.Retention.TTL = true                                   // TestContractTTLExpiry
	c.Memory.Retention.Forget = true                                // TestForgetBySubject
	c.Agents.MemoryBackends = []string{"long-term"}                 // TestContractCrossInstance (durable across engines)
	c.Agents.MemoryConsolidation.Supported = true                   // TestConsolidationIdempotency
	c.Agents.Commitments.Supported = true                           // TestCommitmentFiresOnce
	c.Agents.Proposals.ArtifactKinds = host.ProposalKinds           // TestProposalInertnessAndGatedActivation
	c.Agents.Proposals.DuplicationDetection = true                  // TestProposalInertnessAndGatedActivation
	c.Agents.Proposals.Activation = e.Policy().Proposals.Activation // the only mode: TestM5AdvertisedActivationIsTheOnlyOne
	if c.Agents.Proposals.Activation == policy.ActivationDirectRBAC {
		c.Agents.Proposals.ActivationScope = authz.ScopeProposalActivate // TestProposalInertnessAndGatedActivation
	}
	c.MultiAgent.ExecutionModel.Version = 2 // replay-snapshot: TestReplaySnapshot
	c.Dimensions = []Dimension{
		{"read", true, []string{"TestContractRoundTrip", "TestContractCrossTenantIsolation", "TestContractCrossInstance", "FuzzMemoryRefRead"}},
		{"write", true, []string{"TestContractRoundTrip", "TestContractRedaction"}},
		{"search", true, []string{"TestSearchHybridRanking", "TestSearchTemporalValidity"}},
		{"long-term-durability", true, []string{"TestContractCrossInstance"}},
		{"compaction", true, []string{"TestDistillationBudgetAndByteStability", "TestDistillationRedactsAgain", "TestConsolidationIdempotency"}},
		{"attribution", true, []string{"TestAttributionEventsAreContentFree"}},
		{"replay-snapshot", true, []string{"TestReplaySnapshot", "TestCommitmentFiresOnce"}},
		{"retention", true, []string{"TestContractTTLExpiry", "TestForgetBySubject"}},
	}
	return c
}
