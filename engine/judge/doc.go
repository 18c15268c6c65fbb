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
// The relations read by name come from one table, relations.tsv (name,
// cardinality, the word class of its values, its verb and noun forms:
// "born in", "headquartered in", "the head of state of X", "Y, the CEO of
// X, ..."), so a new relation is one row. A chat turn's clock time and
// speaker label ("[3:45 pm] Maya: ...") are not part of what it states; the
// label names who "I" is, and a question states nothing.
// Values are normalised: numbers (words, thousands separators, "4.2
// million"), money with its currency, percentages, dates in common formats,
// clock times, and lower-cased words.
//
// # Contradiction
//
// [Judge.Contradiction] (and [Contradiction] with the defaults) compares two
// texts. Relations are single- or multi-valued ([DefaultCardinality] and
// relations.tsv, with overrides passed to [New], e.g. from the policy
// file). The rule that fired is named in the Verdict's Rule field, one of
// [ContradictionRules] (another value of a single-valued relation, the same
// claim asserted and denied, antonymous values or relations, conflicting
// numbers or dates, and for descriptive sentences exclusive states of a
// shared subject, another count of the same thing, or asleep against
// active), and its Explanation starts with the name. Precision comes
// first: a rule fires only when the claims share a subject and relation, or
// the subject that opens a statement in both texts has the exclusive
// states said of it in that statement.
//
// # Duplicates
//
// [Normalize] is the tier-3 comparison form (embed it with
// engine/similar.Embed and compare cosines); [Fingerprint] is a
// role-preserving tier-2 fingerprint. [Compare] reads the delta of a new
// text against a stored one it reads like, and [Delta.Decide] resolves it
// by the first rule of the rule table ([RuleTable]) that decides: a write
// is a duplicate only when it states the same claims (the same content
// words, values and names in the same order once normalised), and merges
// only when it keeps every word of the stored text in the same order and
// adds to it. Every difference rule (another number, date or name,
// negation, a role swap, a modal, a bound, "only", a hedge, and/or, a
// preposition, an antonym, another claim value) keeps the two apart, as
// does a reordering or a text that says less: engine/gate's dedup gate
// then links them NEAR_DUPLICATE or sends the write to a person. In
// EPISODIC memory, which records events, a duplicate or a merge is a link
// too (rules repeats-event and extends-event): the same words said again
// are another episode, and a later one never replaces an earlier one. Every
// decision names its rule and the words that fired it; [Explain] lists
// every difference rule that fires on a pair, and `memgov judge A B`
// prints the chain.
//
// Word classes (prepositions, modals, hedges, number words, months,
// weekdays, ...) are data files in words/, one class per file.
//
// # Evidence
//
// [Support] reads the claims of a write and of an excerpt (abbreviations
// spelled out from abbreviations.tsv, "Key: value" lines, any word order):
// an excerpt that states the claim's subject, relation and values supports
// it fully; one that gives the same slot another value, or denies it,
// contradicts it (score 0); one about something else scores low. The rule
// is named in Evidence.Rule, one of [SupportRules].
//
// The corpus tests measure all of this on testdata/corpora; see its
// README for the sources.
package judge
