package engine

// Erasure kinds recorded by ERASE entries.
const (
	EraseGCHard    = "gc_hard_delete" // phase 2 of GC after the grace period (spec §12.7.5)
	EraseRetention = "retention"      // PII past its retention: hard delete + audit (spec §12.10.4)
)
