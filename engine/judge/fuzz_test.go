package judge

import "testing"

func FuzzJudge(f *testing.F) {
	for _, s := range [][2]string{
		{"Dana's manager is Priya.", "Dana's manager is Tomás."},
		{"The budget is $2,000.", "The budget is 2000 dollars."},
		{"A man is sleeping.", "The man is running."},
		{"31/12/2025 at 9:40 pm", "2025-12-31 21:40"},
		{"Acme acquired Globex.", "Globex acquired Acme."},
		{"Sam is allergic to peanuts.", "Sam has a peanut allergy."},
		{"The shuttle's reentry.", "The shuttle's re-entry."},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		v := Contradiction(a, b)
		if v.Confidence < 0 || v.Confidence > 1 || v.Contradicts != (v.Rule != "") {
			t.Fatalf("Contradiction(%q, %q) = %+v", a, b, v)
		}
		if ds := Explain(a, a); len(ds) > 0 {
			t.Fatalf("Explain(%q, itself) = %+v", a, ds)
		}
		fp1, fp2 := Fingerprint(a), Fingerprint(a)
		n1, n2 := Normalize(a), Normalize(a)
		if fp1 != fp2 || n1 != n2 {
			t.Fatalf("not deterministic on %q", a)
		}
		// A text adds nothing to itself; a near-duplicate with a conflict is
		// never a duplicate; similarity is symmetric and in [0,1].
		if d := Compare(a, a); d.Conflict != nil || len(d.Added) > 0 || d.Resolve() == ResolveMerge {
			t.Fatalf("Compare(%q, itself) = %+v", a, d)
		}
		if d := Compare(a, b); (d.Conflict != nil || d.Reordered) && d.Resolve() != ResolveConflict {
			t.Fatalf("Compare(%q, %q) resolves a conflict as %s", a, b, d.Resolve())
		}
		s1, s2 := Similarity(a, b), Similarity(b, a)
		if s1 != s2 || s1 < 0 || s1 > 1 {
			t.Fatalf("Similarity(%q, %q) = %v, reversed %v", a, b, s1, s2)
		}
		for _, th := range []float64{0.3, 0.5, 0.8} {
			if got, ok := SimilarAtLeast(a, b, th); ok != (s1 >= th) || (ok && got < th) {
				t.Fatalf("SimilarAtLeast(%q, %q, %v) = %v, %v; Similarity %v", a, b, th, got, ok, s1)
			}
		}
		e := Support(a, b)
		if e.Score < 0 || e.Score > 1 || (e.Contradicts && e.Score != 0) {
			t.Fatalf("Support(%q, %q) = %+v", a, b, e)
		}
	})
}
