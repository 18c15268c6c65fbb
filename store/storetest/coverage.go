package storetest

// Coverage maps every method of memgov.Store, memgov.ReadTx and memgov.Tx to
// the conformance tests (concern/test, as Run names them) that check it. A
// method added to the contract without an entry here fails TestCoverage.
var Coverage = map[string][]string{
	// Store (store.go) and Maintainer (maintenance.go).
	"Update":       {"Store/UpdateCommitsOrRollsBack", "Log/AppendRefusesWhatCannotApply", "Engine/AtomicUpdate"},
	"View":         {"Store/ViewIsASnapshot"},
	"Info":         {"Store/InfoAndClose"},
	"Close":        {"Store/InfoAndClose"},
	"VerifyReplay": {"Store/VerifyAndRebuild"},
	"Verify":       {"Store/VerifyAndRebuild", "Store/CompactKeepsEveryRow", "Log/AppendAssignsLSNTimeAndChain", "Lifecycle/SecureDeleteInATransaction"},
	"Rebuild":      {"Store/VerifyAndRebuild", "Engine/ReplayProperty"},
	"Compact":      {"Store/CompactKeepsEveryRow"},

	// LogReader and LogWriter (log.go).
	"LogSize":          {"Log/EmptyLog", "Log/RangeLeavesAndTime", "Log/AppendRefusesWhatCannotApply"},
	"LogRange":         {"Log/EmptyLog", "Log/RangeLeavesAndTime", "Log/AppendAssignsLSNTimeAndChain"},
	"Leaves":           {"Log/EmptyLog", "Log/RangeLeavesAndTime"},
	"LSNAt":            {"Log/EmptyLog", "Log/RangeLeavesAndTime", "Engine/PointInTime"},
	"TimeOf":           {"Log/EmptyLog", "Log/RangeLeavesAndTime"},
	"AuditCheckpoints": {"Log/EmptyLog", "Log/AuditCheckpoints"},
	"Append":           {"Log/AppendAssignsLSNTimeAndChain", "Log/AppendRefusesWhatCannotApply", "Store/UpdateCommitsOrRollsBack", "Lifecycle/ErasureResidueCarriesALog"},

	// DeadLetterReader and DeadLetterWriter (webhooks.go).
	"DeadLetters":   {"DeadLetters/KeptListedAndRolledBack"},
	"AddDeadLetter": {"DeadLetters/KeptListedAndRolledBack"},

	// PrincipalReader (principals.go).
	"Principal":  {"Principals/LookupAndOrder", "Engine/Principals"},
	"Principals": {"Principals/LookupAndOrder"},

	// CredentialReader (credentials.go).
	"TokenByHash": {"Credentials/TokensByHashAndRevocation"},
	"Token":       {"Credentials/TokensByHashAndRevocation"},
	"Tokens":      {"Credentials/TokensByHashAndRevocation"},
	"SSHKey":      {"Credentials/SSHKeys"},
	"SSHKeys":     {"Credentials/SSHKeys"},

	// ItemReader (items.go).
	"Item":            {"Items/ItemsVersionsAndHistory"},
	"ItemByKey":       {"Items/ItemsVersionsAndHistory", "Engine/ReplayProperty"},
	"Version":         {"Items/ItemsVersionsAndHistory", "Engine/ReplayProperty"},
	"History":         {"Items/ItemsVersionsAndHistory", "Engine/ReplayProperty"},
	"Active":          {"Items/ActiveNowAndAtLSN", "Engine/PointInTime", "Engine/TTLNeverSurfaces"},
	"Refs":            {"Items/Refs"},
	"DueExpiries":     {"Items/DueExpiries"},
	"IndexedVersions": {"Items/IndexedVersions"},
	"SearchStamp":     {"Items/SearchStamp"},
	"SearchChanges":   {"Items/SearchChanges"},

	// PipelineReader and PipelineWriter (pipeline.go).
	"Idempotent":          {"Pipeline/Idempotency"},
	"CountOutcomes":       {"Pipeline/OutcomesAndCounts"},
	"CountSessionCommits": {"Pipeline/OutcomesAndCounts"},
	"Candidates":          {"Pipeline/Candidates", "Pipeline/LightCandidates", "Pipeline/LightBandCandidates"},
	"CandidateRows":       {"Pipeline/LightCandidates"},
	"TopicCandidates":     {"Pipeline/TopicCandidates"},
	"ModelVectors":        {"Pipeline/ModelVectors"},
	"VectorTodo":          {"Pipeline/ModelVectors"},
	"PutModelVector":      {"Pipeline/ModelVectors"},
	"PutFeatures":         {"Pipeline/Features", "Pipeline/Candidates"},
	"FeatureTodo":         {"Pipeline/Features"},
	"IndexStatus":         {"Pipeline/Features"},
	"CitedItems":          {"Pipeline/CitedItems"},
	"RecordOutcome":       {"Pipeline/OutcomesAndCounts", "Telemetry/MetricsData", "Telemetry/ComplianceData"},

	// ReviewReader (reviews.go).
	"Review":       {"Reviews/QueueDecisionsAndRecord"},
	"Reviews":      {"Reviews/QueueDecisionsAndRecord"},
	"AgentRecord":  {"Reviews/QueueDecisionsAndRecord"},
	"OpenReviewOf": {"Reviews/QueueDecisionsAndRecord"},

	// BaselineReader and BaselineWriter (baselines.go).
	"Baseline":         {"Baselines/NothingRecorded", "Baselines/BaselinesCheckpointsAndCache"},
	"BaselineByID":     {"Baselines/NothingRecorded", "Baselines/BaselinesCheckpointsAndCache"},
	"MemHead":          {"Baselines/NothingRecorded", "Baselines/OpLogAndMaps", "Baselines/BaselinesCheckpointsAndCache"},
	"LatestCheckpoint": {"Baselines/NothingRecorded", "Baselines/BaselinesCheckpointsAndCache"},
	"MemOps":           {"Baselines/NothingRecorded", "Baselines/OpLogAndMaps"},
	"MemoryMap":        {"Baselines/NothingRecorded", "Baselines/OpLogAndMaps"},
	"FoldMap":          {"Baselines/NothingRecorded", "Baselines/OpLogAndMaps"},
	"Dirty":            {"Baselines/NothingRecorded", "Baselines/BaselinesCheckpointsAndCache"},
	"StateCache":       {"Baselines/NothingRecorded", "Baselines/BaselinesCheckpointsAndCache"},
	"OpenDrift":        {"Baselines/NothingRecorded", "Baselines/DriftEpisodes"},
	"DriftEvent":       {"Baselines/NothingRecorded", "Baselines/DriftEpisodes"},
	"DriftEvents":      {"Baselines/NothingRecorded", "Baselines/DriftEpisodes"},
	"OpenSession":      {"Baselines/NothingRecorded", "Baselines/Sessions"},
	"PutStateCache":    {"Baselines/BaselinesCheckpointsAndCache"},
	"ClearDirty":       {"Baselines/BaselinesCheckpointsAndCache"},

	// LifecycleReader and LifecycleWriter (lifecycle.go).
	"GCScan":       {"Lifecycle/GCScanAndCursor"},
	"GCPurgeable":  {"Lifecycle/Purgeable"},
	"GCCursor":     {"Lifecycle/GCScanAndCursor"},
	"SetGCCursor":  {"Lifecycle/GCScanAndCursor"},
	"Linked":       {"Lifecycle/LinkedAndDerived"},
	"EraseMatches": {"Lifecycle/EraseMatchesAndEntries"},
	"DerivedItems": {"Lifecycle/LinkedAndDerived"},
	"ItemEntries":  {"Lifecycle/EraseMatchesAndEntries"},
	"LeaseOf":      {"Lifecycle/Leases"},
	"SecureDelete": {"Lifecycle/SecureDeleteInATransaction"},
	// The erasure residue a migration carries (lifecycle.go).
	"ErasureResidue":        {"Lifecycle/ErasureResidueCarriesALog"},
	"RestoreErasureResidue": {"Lifecycle/ErasureResidueCarriesALog"},

	// TelemetryReader and TelemetryWriter (telemetry.go).
	"MetricsData":        {"Telemetry/MetricsData", "Telemetry/ComplianceData"},
	"ComplianceData":     {"Telemetry/ComplianceData"},
	"RecordAccess":       {"Lifecycle/GCScanAndCursor"},
	"RecordRetrieval":    {"Telemetry/MetricsData", "Lifecycle/GCScanAndCursor"},
	"RecordFeedback":     {"Telemetry/MetricsData", "Telemetry/FeedbackErrors", "Lifecycle/GCScanAndCursor"},
	"RecordTaskOutcome":  {"Telemetry/TaskOutcomes"},
	"CountLease":         {"Telemetry/MetricsData"},
	"RecordRevalidation": {"Telemetry/MetricsData"},
	"RecordRead":         {"Quarantine/RecordReadAndFold"},
	"FoldReads":          {"Quarantine/RecordReadAndFold"},

	// QuarantineReader (quarantine.go).
	"Quarantined":     {"Quarantine/QuarantineLifecycle"},
	"AgentOutcomes":   {"Quarantine/QuarantineLifecycle"},
	"ActiveWrittenBy": {"Quarantine/QuarantineLifecycle"},

	// WorkspaceReader (workspaces.go).
	"WorkspaceByID":         {"Workspaces/WorkspaceLifecycle"},
	"WorkspaceByRef":        {"Workspaces/WorkspaceLifecycle"},
	"WorkspaceList":         {"Workspaces/WorkspaceLifecycle"},
	"WorkspaceTouched":      {"Workspaces/WorkspaceLifecycle"},
	"WorkspaceOfReview":     {"Workspaces/WorkspaceLifecycle"},
	"WorkspaceReviewCounts": {"Workspaces/WorkspaceLifecycle"},

	// EventReader (events.go).
	"Events": {"Events/OutboxQueries"},

	// ProposalReader (proposals.go).
	"Proposals":         {"Proposals/ProposalsAndRevisions"},
	"Proposal":          {"Proposals/ProposalsAndRevisions"},
	"ProposalRevisions": {"Proposals/ProposalsAndRevisions"},

	// CommitmentReader (commitments.go).
	"Commitments": {"Commitments/CommitmentsAndFiring"},
	"Commitment":  {"Commitments/CommitmentsAndFiring"},
}
