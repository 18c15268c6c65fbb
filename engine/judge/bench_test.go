package judge

import "testing"

func BenchmarkContradiction(b *testing.B) {
	x := "Dana's manager is Priya, who joined the payments team in March 2024 from Globex."
	y := "Dana's manager is Tomás; he moved from Lisbon to Berlin and leads payments."
	for b.Loop() {
		Contradiction(x, y)
	}
}

func BenchmarkExplain(b *testing.B) {
	x := "The staging database runs on port 5432 and is reset every Sunday at 02:00 UTC."
	y := "The staging DB runs on port 5432 and is reset each Sunday at 2 am UTC."
	for b.Loop() {
		Explain(x, y)
	}
}

func BenchmarkNormalize(b *testing.B) {
	x := "Refunds for annual plans are prorated by whole months remaining; the support policy says agents must escalate refunds over $1,000 to a team lead."
	for b.Loop() {
		Normalize(x)
	}
}

// BenchmarkSimilarAtLeast is the dedup gate's filter on one candidate, its
// texts prepared once (the cache) as they are across a run of writes.
func BenchmarkSimilarAtLeast(b *testing.B) {
	x := "The staging database runs on port 5432 and is reset every Sunday at 02:00 UTC."
	y := "Backups of the staging DB are kept for thirty days in the eu-west bucket."
	for b.Loop() {
		SimilarAtLeast(x, y, 0.5)
	}
}

// BenchmarkCompare reads the delta of a rewording, as the dedup gate does
// for a near-duplicate.
func BenchmarkCompare(b *testing.B) {
	x := "Prosecutors said Paracha, if convicted, could face at least 17 years in prison."
	y := "Paracha faces at least 17 years in prison if convicted."
	for b.Loop() {
		Compare(x, y)
	}
}
