// Package judge is memgov's rule-based semantic judgement of plain text as
// agents write it to memory: it reads claims, tells contradictions from
// compatible statements, keeps the dedup gate from discarding a fact that
// differs in a number, date, name, negation or role, and scores how well an
// excerpt supports a claim.
//
// It is a leaf package: it imports only the standard library, and its word
// knowledge (antonyms, synonym groups, words that can stand for each other,
// irregular inflections) is a lexicon
// generated from WordNet 3.0 by internal/lexgen and embedded at build time.
//
// # Claims
//
// [Extract] reads subject–relation–value claims from frequent patterns:
// "X is Y", "X's R is V", "the R of X is V", "X is the R of Y", "X is Y's
// R", "X lives in / works at / prefers / likes / uses / was born in V" and
// other relation verbs, with negation ("not", "never", "no longer", "n't").
// Values are normalised: numbers (words, thousands separators, "4.2
// million"), money with its currency, percentages, dates in common formats,
// clock times, and lower-cased words.
//
// # Contradiction
//
// [Judge.Contradiction] (and [Contradiction] with the defaults) compares two
// texts. Relations are single- or multi-valued ([DefaultCardinality], with
// overrides passed to [New], e.g. from the policy file). Rules, in the
// Verdict's Rule field: another value of a single-valued relation, the same
// claim asserted and denied, antonymous values or relations, conflicting
// numbers or dates, and for descriptive sentences exclusive states of a
// shared subject, another count of the same thing, or asleep against
// active. Precision comes first: a rule fires only when the claims share a
// subject and relation, or the scene words share a subject.
//
// # Duplicates
//
// [Normalize] is the tier-3 comparison form (embed it with
// engine/similar.Embed and compare cosines); [Fingerprint] is a
// role-preserving tier-2 fingerprint; [Differs] reports a material
// difference that must stop a dedup gate from discarding one text as a
// duplicate of the other. A gate calls it as:
//
//	dup := judge.Fingerprint(a) == judge.Fingerprint(b) ||
//		similar.Cosine(similar.Embed(judge.Normalize(a)), similar.Embed(judge.Normalize(b))) >= threshold
//	if d, ok := judge.Differs(a, b); ok {
//		dup = false // keep both; d.Explanation says why
//	}
//
// # Evidence
//
// [Support] scores in [0,1] how well an excerpt states a claim's values and
// key terms; an excerpt that states another value for the claim's relation
// scores 0 and is reported as contradicting.
//
// The corpus tests measure all of this on testdata/corpora; see its
// README for the sources.
package judge
