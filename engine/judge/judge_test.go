package judge

import (
	"strings"
	"testing"
)

func TestQuantities(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"$2,000", "2000 usd"},
		{"2000 dollars", "2000 usd"},
		{"€45", "45 eur"},
		{"45 euros", "45 eur"},
		{"4.2 million dollars", "4200000 usd"},
		{"$4.2 million", "4200000 usd"},
		{"15%", "15%"},
		{"15 percent", "15%"},
		{"15 per cent", "15%"},
		{"thirty-four years", "34 year"},
		{"1,200,000", "1200000"},
		{"two children", "2 child"},
		{"64GB", "64 gb"},
		{"March 3, 2025", "2025-03-03"},
		{"3 March 2025", "2025-03-03"},
		{"2025-03-03", "2025-03-03"},
		{"31/12/2025", "2025-12-31"},
		{"12/31/2025", "2025-12-31"},
		{"Nov 14, 2025", "2025-11-14"},
		{"12 May", "????-05-12"},
		{"January 2023", "2023-01-??"},
		{"Tuesday", "tue"},
		{"09:40", "09:40"},
		{"9:40 am", "09:40"},
		{"third floor", "3 floor"},
		{"8 pm", "20:00"},
		{"3pm", "15:00"},
	}
	for _, tt := range tests {
		qs := quantities(tt.in)
		if len(qs) != 1 || qs[0].Text != tt.want {
			var got []string
			for _, q := range qs {
				got = append(got, q.Text)
			}
			t.Errorf("quantities(%q) = %v, want [%s]", tt.in, got, tt.want)
		}
	}
	for _, s := range []string{"one of the team", "the may meeting", "version"} {
		if qs := quantities(s); len(qs) != 0 {
			t.Errorf("quantities(%q) = %v, want none", s, qs)
		}
	}
}

func TestExtract(t *testing.T) {
	tests := []struct {
		in   string
		want string // Claim.String of the first claim, "" for none
	}{
		{"Dana's manager is Priya.", "dana | manager | priya"},
		{"Priya is Dana's manager.", "dana | manager | priya"},
		{"The capital of France is Paris.", "france | capital | paris"},
		{"Bill Lumbergh is the CEO of Initech.", "initech | ceo | bill lumbergh"},
		{"Alice lives in Berlin.", "alice | live in | berlin"},
		{"Bob works at Acme Corp.", "bob | work at | acme corp"},
		{"Bob is employed by Acme Corp.", "bob | work at | acme corp"},
		{"Marie Curie was born in Warsaw.", "marie curie | born place | warsaw"},
		{"Paul was born in 1987.", "paul | born date | 1987"},
		{"The user prefers dark mode.", "user | prefer | dark mode"},
		{"The user does not eat meat.", "NOT user | eat | meat"},
		{"Nora no longer works at Globex.", "NOT nora | work at | globex"},
		{"Grace doesn't speak French.", "NOT grace | speak | french"},
		{"The user never drinks coffee.", "NOT user | drink | coffee"},
		{"Carol is 34 years old.", "carol | age | 34 year"},
		{"The monthly budget is $2,000.", "monthly budget | identity | 2000 usd"},
		{"The wifi password is tulip42.", "wifi password | identity | tulip42"},
		{"Mia's dentist is Dr. Okafor.", "mia | dentist | dr okafor"},
		{"The default branch is main.", "default branch | identity | main"},
		{"Hassan moved to Dubai and lives there now.", "hassan | live in | dubai"},
		{"The conference takes place in Vienna.", "conference | located in | vienna"},
		{"The user's dog is named Biscuit.", "user | dog | biscuit"},
		{"Hello there", ""},
	}
	for _, tt := range tests {
		cs := Extract(tt.in)
		got := ""
		if len(cs) > 0 {
			got = cs[0].String()
		}
		if got != tt.want {
			t.Errorf("Extract(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCardinality(t *testing.T) {
	j := New(nil)
	for rel, want := range map[string]Cardinality{
		"born place": Single, "live in": Single, "manager": Single, "age": Single, "prefer": Single,
		"speak": Multi, "like": Multi, "visit": Multi, "is": Multi,
		"favourite colour": Single, "hobbies": Multi, "eat": Multi,
	} {
		if got := j.Cardinality(rel); got != want {
			t.Errorf("Cardinality(%q) = %v, want %v", rel, got, want)
		}
	}
	o := New(map[string]Cardinality{"Speak": Single, "live in": Multi})
	if o.Cardinality("speak") != Single || o.Cardinality("live in") != Multi {
		t.Errorf("overrides not applied: speak %v, live in %v", o.Cardinality("speak"), o.Cardinality("live in"))
	}
	if v := o.Contradiction("Grace speaks French.", "Grace speaks Dutch."); !v.Contradicts {
		t.Errorf("with speak single-valued, French/Dutch should contradict: %+v", v)
	}
	if v := o.Contradiction("Alice lives in Berlin.", "Alice lives in Lisbon."); v.Contradicts {
		t.Errorf("with live in multi-valued, Berlin/Lisbon should not contradict: %+v", v)
	}
}

func TestContradictionRules(t *testing.T) {
	tests := []struct {
		a, b string
		rule string // "" for no contradiction
	}{
		{"Dana's manager is Priya.", "Dana's manager is Tomás.", RuleSingleValued},
		{"Alice lives in Berlin.", "Alice lives in Lisbon.", RuleSingleValued},
		{"The capital of Australia is Canberra.", "The capital of Australia is Sydney.", RuleSingleValued},
		{"Sam is allergic to peanuts.", "Sam is not allergic to peanuts.", RuleNegation},
		{"Nora no longer works at Globex.", "Nora works at Globex.", RuleNegation},
		{"The office is open on Saturdays.", "The office is closed on Saturdays.", RuleAntonym},
		{"Tom is older than Jerry.", "Tom is younger than Jerry.", RuleAntonym},
		{"The test suite passes.", "The test suite fails.", RuleRelationAntonym},
		{"The API rate limit is 100 requests per minute.", "The API rate limit is 500 requests per minute.", RuleQuantityInText},
		{"The project deadline is March 3, 2025.", "The project deadline is 2025-04-10.", RuleQuantity},
		{"The backup runs every night at 2 am.", "The backup runs every night at 4 am.", RuleQuantityInText},
		{"The meeting with the auditors is on Tuesday.", "The meeting with the auditors is on Thursday.", RuleQuantityInText},
		{"A child sleeps under a pink pillow.", "The child is running in the park.", RuleActivity},
		{"Factory workers standing in uniform next to their product.", "The factory workers are sitting.", RuleScene},
		{"Two women are writing on a banner.", "Three women are writing on a banner.", RuleSceneCount},
		// Compatible.
		{"Dana's manager is Priya.", "Dana's manager is Priya Sharma.", ""},
		{"Grace speaks French.", "Grace speaks Spanish.", ""},
		{"The user likes jazz.", "The user likes hiking.", ""},
		{"The monthly budget is $2,000.", "The monthly budget is 2000 dollars.", ""},
		{"The project deadline is March 3, 2025.", "The project deadline is 2025-03-03.", ""},
		{"Nora no longer works at Globex.", "Nora works at Initech.", ""},
		{"Alice lives in Berlin.", "Bob lives in Lisbon.", ""},
		{"The user prefers dark mode.", "The user prefers vim keybindings.", ""},
		{"The user's mother lives in Porto.", "The user's father lives in Madrid.", ""},
		{"The product costs $30.", "The product's shipping costs $5.", ""},
	}
	for _, tt := range tests {
		v := Contradiction(tt.a, tt.b)
		if tt.rule == "" {
			if v.Contradicts {
				t.Errorf("Contradiction(%q, %q) = %s (%s), want none", tt.a, tt.b, v.Rule, v.Explanation)
			}
			continue
		}
		if !v.Contradicts || v.Rule != tt.rule {
			t.Errorf("Contradiction(%q, %q) = %v %s (%s), want %s", tt.a, tt.b, v.Contradicts, v.Rule, v.Explanation, tt.rule)
			continue
		}
		if v.Confidence <= 0 || v.Confidence > 1 || v.Explanation == "" {
			t.Errorf("Contradiction(%q, %q): confidence %v, explanation %q", tt.a, tt.b, v.Confidence, v.Explanation)
		}
		// The verdict does not depend on the order of the texts.
		if w := Contradiction(tt.b, tt.a); !w.Contradicts {
			t.Errorf("Contradiction(%q, %q) is not symmetric", tt.b, tt.a)
		}
	}
}

func TestNormalize(t *testing.T) {
	same := [][2]string{
		{"The monthly budget is $2,000.", "the monthly budget is 2000 dollars"},
		{"The user doesn't eat meat.", "The user does not eat meat."},
		{"The project deadline is March 3, 2025.", "The project deadline is 3 March 2025."},
		{"Carol is 34 years old.", "Carol is thirty-four years old."},
		{"The user is left-handed.", "The user is left handed."},
		{"The company was founded in 2009.", "The company was established in 2009."},
	}
	for _, p := range same {
		if x, y := Normalize(p[0]), Normalize(p[1]); x != y {
			t.Errorf("Normalize(%q) = %q, Normalize(%q) = %q, want equal", p[0], x, p[1], y)
		}
	}
	differ := [][2]string{
		{"The budget is $2,000.", "The budget is $20,000."},
		{"Alice lives in Berlin.", "Alice lives in Bern."},
		{"The user eats meat.", "The user does not eat meat."},
	}
	for _, p := range differ {
		if Normalize(p[0]) == Normalize(p[1]) {
			t.Errorf("Normalize(%q) == Normalize(%q) = %q", p[0], p[1], Normalize(p[0]))
		}
	}
}

func TestFingerprint(t *testing.T) {
	if Fingerprint("Acme acquired Globex.") == Fingerprint("Globex acquired Acme.") {
		t.Error("role swap shares a fingerprint")
	}
	if Fingerprint("The user prefers dark mode.") != Fingerprint("user prefers dark mode") {
		t.Error("spelling variants should share a fingerprint")
	}
	if Fingerprint("Dana's manager is Priya.") != Fingerprint("Priya is Dana's manager.") {
		t.Error("the same claim in two word orders should share a fingerprint")
	}
	if Fingerprint("Sam eats meat.") == Fingerprint("Sam does not eat meat.") {
		t.Error("negation shares a fingerprint")
	}
}

func TestDifferenceRules(t *testing.T) {
	tests := []struct {
		a, b string
		rule string // "" for no material difference
	}{
		{"Acme acquired Globex.", "Globex acquired Acme.", RuleRoleSwap},
		{"The client paid the vendor.", "The vendor paid the client.", RuleRoleSwap},
		{"The API rate limit is 100 requests per minute.", "The API rate limit is 1000 requests per minute.", RuleNumberDiffers},
		{"The ticket price is €45.", "The ticket price is $45.", RuleNumberDiffers},
		{"The contract ends on 31/12/2025.", "The contract ends on 31/12/2026.", RuleDateDiffers},
		{"The meeting is on Tuesday at 10 am.", "The meeting is on Tuesday at 11 am.", RuleDateDiffers},
		{"Bob works at Acme Corp.", "Bob works at Globex Corp.", RuleNameDiffers},
		{"Sam is allergic to peanuts.", "Sam is not allergic to peanuts.", RuleNegationDiffers},
		{"Some admins can export reports.", "Admins can export reports.", RuleQuantifierDiffers},
		{"The contract renews every January.", "The contract renews each January.", ""},
		{"The user prefers dark mode.", "The user prefers light mode.", RuleAntonymWord},
		// Same facts.
		{"The monthly budget is $2,000.", "The monthly budget is 2000 dollars.", ""},
		{"Dana's manager is Priya.", "Priya is Dana's manager.", ""},
		{"Ravi owns the billing service.", "The billing service is owned by Ravi.", ""},
		{"The user never drinks coffee.", "The user does not drink coffee.", ""},
		{"Backups run nightly at 2 am.", "The backup runs every night at 2 am.", ""},
	}
	for _, tt := range tests {
		d := Compare(tt.a, tt.b).Conflict
		if tt.rule == "" {
			if d != nil {
				t.Errorf("Compare(%q, %q) = %s (%s), want no difference", tt.a, tt.b, d.Rule, d.Explanation)
			}
			continue
		}
		if d == nil || d.Rule != tt.rule {
			t.Errorf("Compare(%q, %q) = %+v, want rule %s", tt.a, tt.b, d, tt.rule)
		}
	}
}

func TestSupport(t *testing.T) {
	claim := "Dana's manager is Priya."
	good := Support(claim, "In the org chart update of May, Priya became Dana's manager.")
	none := Support(claim, "The cafeteria opens at noon on weekdays.")
	bad := Support(claim, "Dana's manager is Tomás, according to HR.")
	if good.Score < 0.7 || good.Contradicts {
		t.Errorf("supporting excerpt: %+v", good)
	}
	if none.Score > 0.2 || none.Contradicts {
		t.Errorf("unrelated excerpt: %+v", none)
	}
	if bad.Score != 0 || !bad.Contradicts || !strings.Contains(bad.Explanation, "contradicts") {
		t.Errorf("contradicting excerpt: %+v", bad)
	}
	num := Support("The API rate limit is 100 requests per minute.", "Clients may send at most 100 requests per minute to the API.")
	wrong := Support("The API rate limit is 100 requests per minute.", "The API rate limit is 500 requests per minute.")
	if num.Score < 0.6 {
		t.Errorf("numeric support: %+v", num)
	}
	if !wrong.Contradicts || wrong.Score != 0 {
		t.Errorf("numeric contradiction: %+v", wrong)
	}
	if e := Support("", "x"); e.Score != 0 {
		t.Errorf("empty claim: %+v", e)
	}
}

func TestLexicon(t *testing.T) {
	l := ParseLexicon("# comment\na a hot cold\ns buy purchase\nm ran run\nbogus line\n")
	if !l.Antonyms("hot", "cold") || !l.Antonyms("colder", "hot") || l.Antonyms("hot", "warm") {
		t.Error("antonyms")
	}
	if l.Canonical("purchase") != "buy" || l.Canonical("car") != "car" {
		t.Error("synonym groups")
	}
	if l.Lemma("ran") != "run" {
		t.Error("irregular forms")
	}
	d := DefaultLexicon()
	for _, p := range [][2]string{{"asleep", "awake"}, {"open", "closed"}, {"alive", "dead"}, {"sit", "stand"}} {
		if !d.Antonyms(p[0], p[1]) || !d.StateAntonyms(p[0], p[1]) {
			t.Errorf("default lexicon: %s/%s", p[0], p[1])
		}
	}
	if !d.Antonyms("man", "woman") || d.StateAntonyms("man", "woman") {
		t.Error("noun antonyms are antonyms but not state antonyms")
	}
	if !strings.Contains(lexiconText, "Princeton University") {
		t.Error("the embedded lexicon lost its WordNet licence header")
	}
}

func TestNoPanics(t *testing.T) {
	inputs := []string{"", " ", "'s", "n't", "is", "$", "%", "1/2/", "::", "\xff\xfe", "the of is", "A's B's C is D's E",
		strings.Repeat("a ", 500), "9999999999999999999999 dollars", "31/02/2025", "12:99"}
	for _, a := range inputs {
		for _, b := range inputs {
			_ = Contradiction(a, b)
			_ = Compare(a, b)
			_ = Explain(a, b)
			_ = Support(a, b)
		}
		_ = Normalize(a)
		_ = Fingerprint(a)
		_ = Extract(a)
	}
}

func TestQualifiedQuantities(t *testing.T) {
	for _, p := range [][2]string{
		{"The store opens at 8 am on weekdays.", "The store opens at 10 am on Saturdays."},
		{"The meeting is on Tuesday.", "The meeting is on Tuesday at 10 am."},
		{"Alice lives in Berlin.", "Alice lives in Berlin with her two cats."},
		{"The build takes 5 minutes.", "The test takes 9 minutes."},
	} {
		if v := Contradiction(p[0], p[1]); v.Contradicts {
			t.Errorf("Contradiction(%q, %q) = %s (%s), want none", p[0], p[1], v.Rule, v.Explanation)
		}
	}
	for _, p := range [][2]string{
		{"The server has 64 GB of memory.", "The server has 128 GB of memory."},
		{"The store opens at 8 am on weekdays.", "The store opens at 9 am on weekdays."},
		{"Sam's phone number is 555-0142.", "Sam's phone number is 555-0199."},
	} {
		if v := Contradiction(p[0], p[1]); !v.Contradicts {
			t.Errorf("Contradiction(%q, %q) found none", p[0], p[1])
		}
	}
}

// Compare reads what a new text adds to an old one and Resolve decides
// how a dedup gate may treat it: only a text that states the same words in
// the same order is a duplicate, only one that keeps every word and adds
// to it merges; a conflict, a reordering, a text that says less and a word
// put for another are kept beside the old one.
func TestCompareResolve(t *testing.T) {
	for _, tt := range []struct {
		old, new, want string
	}{
		{"The user prefers dark mode.", "User prefers dark mode", ResolveDuplicate},
		// Saying less is not the same claims: kept, not discarded.
		{"The customer said the parcel for order 4417 arrived damaged and asked for a replacement.", "Customer says the parcel for order 4417 arrived damaged.", ResolveConflict},
		{"Alice lives in Berlin.", "Alice lives in Berlin, Germany.", ResolveMerge},
		{"The meeting was moved to room 4.", "The meeting was moved to room 4 on the second floor.", ResolveMerge},
		// A word put for another is never merged, however long the
		// statement: the merge would lose the stored word.
		{"Refunds for annual plans are processed by the billing team within five business days of the request.",
			"Refunds for annual plans are processed by the billing staff within five business days of the request.", ResolveConflict},
		// Role swaps inside lists and relative clauses.
		{"Priya is the sister of Dev and the cousin of Anil.", "Priya is the sister of Anil and the cousin of Dev.", ResolveConflict},
		{"Mara was married to Jon, who worked as a painter in Lyon.", "Jon was married to Mara, who worked as a painter in Lyon.", ResolveConflict},
		{"Priya is the sister of Dev and the cousin of Anil.", "Priya is the sister of Anil and the cousin of Dev, and she lives in Pune.", ResolveConflict},
		// Conflicts.
		{"The API rate limit is 100 requests per minute.", "The API rate limit is 1000 requests per minute.", ResolveConflict},
		{"The feature flag is enabled in production.", "The feature flag is not enabled in production.", ResolveConflict},
		{"Acme acquired Globex.", "Globex acquired Acme.", ResolveConflict},
		{"Flights from New York to Florida are cheap.", "Flights from Florida to New York are cheap.", ResolveConflict},
		{"The light in the hallway is on.", "The light in the hallway is off.", ResolveConflict},
		{"Bob works at Acme Corp.", "Bob works at Globex Corp.", ResolveConflict},
		// One word for another in a short statement is another fact.
		{"The user's dog is named Biscuit.", "The user's cat is named Biscuit.", ResolveConflict},
		{"The backup runs every night at 2 am.", "The backup runs every week at 2 am.", ResolveConflict},
		// A merge that would lose a number, date or name goes to a person.
		{"Shares of Corixa fell 12 cents to $6.88 as of 3:59 p.m.", "Shares of Corixa fell 12 cents to $6.88 on the Nasdaq stock market.", ResolveConflict},
		// The same words rearranged may say another thing.
		{"On Friday, the Food and Drug Administration approved the use of silicone breast implants with conditions.",
			"The drug was approved for use Friday by the Food and Drug Administration.", ResolveConflict},
	} {
		d := Compare(tt.old, tt.new)
		if got := d.Resolve(); got != tt.want {
			t.Errorf("Compare(%q, %q) resolves %s (%s; %+v), want %s", tt.old, tt.new, got, d, d, tt.want)
		}
	}
}

// An excerpt that leaves claim words unstated reports them; one that
// affirms what the claim denies, or states an antonym in its place,
// contradicts it.
func TestSupportPartialAndRestated(t *testing.T) {
	if e := Support("A cat walks through the water.", "A dog walks through the water."); e.Contradicts || len(e.Missing) == 0 {
		t.Errorf("substituted noun: %+v, want missing terms", e)
	}
	if e := Support("The dog isn't shaggy.", "Two men walk in the park with a shaggy dog."); !e.Contradicts {
		t.Errorf("denied claim: %+v", e)
	}
	if e := Support("The users are awake at the demo.", "The users are asleep at the demo."); !e.Contradicts {
		t.Errorf("antonym in place: %+v", e)
	}
	if e := Support("Grace speaks Spanish.", "Grace speaks French."); e.Contradicts || len(e.Missing) == 0 {
		t.Errorf("another name of a multi-valued relation: %+v, want unsupported, not contradicted", e)
	}
	if e := Support("The museum is free on Sundays.", "Good news: the museum is free on Sundays."); e.Contradicts || len(e.Missing) > 0 || e.Score < 0.99 {
		t.Errorf("stated claim: %+v", e)
	}
}

func TestLexiconRelated(t *testing.T) {
	l := ParseLexicon("r cost price\nr allergic allergy\nr bright smart\nr smart stylish\n")
	for _, p := range [][2]string{{"costs", "price"}, {"prices", "cost"}, {"allergy", "allergic"}, {"same", "same"}} {
		if !l.Related(p[0], p[1]) {
			t.Errorf("Related(%q, %q) = false", p[0], p[1])
		}
	}
	// Relatedness is not transitive: "bright" and "stylish" share no group.
	for _, p := range [][2]string{{"cost", "allergy"}, {"bright", "stylish"}} {
		if l.Related(p[0], p[1]) {
			t.Errorf("Related(%q, %q) = true", p[0], p[1])
		}
	}
	d := DefaultLexicon()
	for _, p := range [][2]string{{"cost", "price"}, {"allergic", "allergy"}, {"nightly", "night"}, {"owns", "possess"}} {
		if !d.Related(p[0], p[1]) {
			t.Errorf("default lexicon: Related(%q, %q) = false", p[0], p[1])
		}
	}
	for _, p := range [][2]string{{"tea", "coffee"}, {"works", "plant"}, {"monday", "tuesday"}, {"buy", "sell"}} {
		if d.Related(p[0], p[1]) {
			t.Errorf("default lexicon: Related(%q, %q) = true", p[0], p[1])
		}
	}
}

// Rewordings resolve as duplicates; words that can stand for each other in
// some sense but change a value, and sides that do not swap whole, do not.
func TestCompareRewordings(t *testing.T) {
	for _, c := range []struct {
		old, new, want string
	}{
		{"Sam is allergic to peanuts.", "Sam has a peanut allergy.", ResolveDuplicate},
		{"The staging database runs on port 5432.", "The staging DB runs on port 5432.", ResolveDuplicate},
		{"The maximum upload size is 25 MB.", "Max upload size is 25 MB.", ResolveDuplicate},
		{"The server has 64 GB of memory.", "The server has 64GB of RAM.", ResolveDuplicate},
		// "every" has no word in the second text: the quantifier is not
		// read as equal, so the two are kept beside each other.
		{"The backup runs every night at 2 am.", "Backups run nightly at 2 am.", ResolveConflict},
		{"The ticket price is €45.", "The ticket costs 45 euros.", ResolveDuplicate},
		{"Dana's manager is Priya.", "Priya is Dana's manager.", ResolveDuplicate},
		{"The shuttle's reentry was fatal.", "The shuttle's re-entry was fatal.", ResolveDuplicate},
		{"The default branch is main.", "The default branch is master.", ResolveConflict},
		{"Dana's manager is Priya.", "Priya's manager is Dana.", ResolveConflict},
		{"Tom is older than Jerry.", "Jerry is older than Tom.", ResolveConflict},
		{"The backup runs every night at 2 am.", "The backup runs every week at 2 am.", ResolveConflict},
		{"A man in a white shirt and shorts prepares to serve a tennis ball.", "A man in a white shirt and shorts is ready to serve the beef wellington.", ResolveConflict},
	} {
		d := Compare(c.old, c.new)
		if got := d.Resolve(); got != c.want {
			t.Errorf("Compare(%q, %q).Resolve() = %s (%s), want %s", c.old, c.new, got, d, c.want)
		}
	}
	// The delta names words as they were written, not their stems.
	d := Compare("His progress is steady, he is comfortable.", "His progress is steady, he is stable.")
	if s := d.String(); !strings.Contains(s, "comfortable") || !strings.Contains(s, "stable") {
		t.Errorf("delta %q does not quote the written words", s)
	}
}

func TestUndot(t *testing.T) {
	for in, want := range map[string]string{"u.s": "us", "u.s.a": "usa", "a.b.c.": "abc", "pep.n": "pep.n", "e.g": "eg", "x": "x", "3.5": "3.5", "1.2.3": "1.2.3"} {
		if got := undot(in); got != want {
			t.Errorf("undot(%q) = %q, want %q", in, got, want)
		}
	}
	if d := Compare("Tariffs on U.S. steel rose in March.", "Tariffs on US steel rose in March."); d.Resolve() != ResolveDuplicate {
		t.Errorf("U.S./US: %s (%s)", d.Resolve(), d)
	}
}

// An adverbial phrase moved whole from one end of a sentence to the other
// states the same thing; a word moved anywhere else may change a role or
// the clause a phrase belongs to.
func TestAdverbialMove(t *testing.T) {
	for _, p := range [][2]string{
		{"In 1965 he moved to Paris.", "He moved to Paris in 1965."},
		{"On Fridays, deploys are frozen.", "Deploys are frozen on Fridays."},
		{"The build failed yesterday.", "Yesterday the build failed."},
		{"After leaving Apple, she joined Google in 2019.", "She joined Google in 2019 after leaving Apple."},
		{"Every night the backup runs at 2 am.", "The backup runs at 2 am every night."},
		{"If the deploy fails, page the on-call engineer.", "Page the on-call engineer if the deploy fails."},
		{"The flight was cancelled due to fog.", "Due to fog, the flight was cancelled."},
		{"According to Apple, sales rose in May.", "Sales rose in May, according to Apple."},
	} {
		if !adverbialMove(p[0], p[1]) || !adverbialMove(p[1], p[0]) {
			t.Errorf("%q / %q: not read as an adverbial moved whole", p[0], p[1])
		}
		if r := Compare(p[0], p[1]).Resolve(); r != ResolveDuplicate {
			t.Errorf("%q / %q: %s (%v), want a duplicate", p[0], p[1], r, Compare(p[0], p[1]))
		}
	}
	for _, p := range [][2]string{
		{"Acme acquired Globex.", "Globex acquired Acme."},
		{"Born in Paris in 1990, he moved to London.", "Born in Paris, he moved to London in 1990."},
		{"In 1990 he was born in Paris and moved to London.", "He was born in Paris and moved to London in 1990."},
		{"He moved from London to Paris.", "He moved from Paris to London."},
		{"The meeting moved from Monday to Friday.", "The meeting moved to Monday from Friday."},
		{"Alice reports to Bob.", "Bob reports to Alice."},
		{"The server in Oslo replicates to the server in Rome.", "The server in Rome replicates to the server in Oslo."},
		{"She joined Google after leaving Apple in 2019.", "In 2019 she joined Google after leaving Apple."},
		{"Dana's manager is Priya.", "Priya's manager is Dana."},
		{"The cache is flushed. Then the job restarts.", "Then the job restarts. The cache is flushed."},
	} {
		if adverbialMove(p[0], p[1]) {
			t.Errorf("%q / %q: read as an adverbial moved whole", p[0], p[1])
		}
		if r := Compare(p[0], p[1]).Resolve(); r == ResolveDuplicate {
			t.Errorf("%q / %q: a duplicate (%v)", p[0], p[1], Compare(p[0], p[1]))
		}
	}
}

// A phrase set off by commas after the opening words may close the
// sentence instead; one that moves into another clause may not.
func TestAdverbialMoveParenthesis(t *testing.T) {
	for _, p := range [][2]string{
		{"Prosecutors said Paracha, if convicted, could face at least 17 years in prison.", "Paracha faces at least 17 years in prison if convicted."},
		{"The migration, after the freeze, moves to the new cluster.", "The migration moves to the new cluster after the freeze."},
	} {
		if !adverbialMove(p[0], p[1]) || !adverbialMove(p[1], p[0]) {
			t.Errorf("%q / %q: not read as an adverbial moved whole", p[0], p[1])
		}
	}
	for _, p := range [][2]string{
		{"Born in Paris in 1990, he moved to London.", "Born in Paris, he moved to London in 1990."},
		{"Alice, after Bob, joined the team.", "Alice joined the team, and Bob after."},
		{"Alice paid Bob, with interest, and Carol repaid it.", "Alice paid Bob and Carol repaid it with interest."},
	} {
		if adverbialMove(p[0], p[1]) || adverbialMove(p[1], p[0]) {
			t.Errorf("%q / %q: read as an adverbial moved whole", p[0], p[1])
		}
	}
}

// An ly-adverb may stand before or after its verb; nouns that happen to
// end in -ly still keep their roles.
func TestLyAdverbOrder(t *testing.T) {
	if r := Compare("Swartz repaid the loan fully.", "Swartz fully repaid the loan.").Resolve(); r != ResolveDuplicate {
		t.Errorf("adverb moved before its verb: %s", r)
	}
	if r := Compare("The deploy was quickly rolled back.", "The deploy was rolled back quickly.").Resolve(); r != ResolveDuplicate {
		t.Errorf("adverb moved after its verb: %s", r)
	}
	for _, p := range [][2]string{
		{"The assembly needs the supply.", "The supply needs the assembly."},
		{"Italy beat Germany narrowly.", "Germany narrowly beat Italy."},
		{"The API is mostly stable and rarely slow.", "The API is rarely stable and mostly slow."},
		{"The film was mostly shot in Oslo and partially in Bergen.", "The film was partially shot in Oslo and mostly in Bergen."},
	} {
		if r := Compare(p[0], p[1]).Resolve(); r == ResolveDuplicate {
			t.Errorf("%q / %q: a duplicate", p[0], p[1])
		}
	}
}

// Texts read wholly as the same claims are the same statement, however
// their relation is worded; a text that says more than its claims is not.
func TestSameClaims(t *testing.T) {
	for _, p := range [][2]string{
		{"Bob works at Acme Corp.", "Bob is employed by Acme Corp."},
		{"The user likes jazz.", "The user enjoys jazz."},
		{"The flight to Oslo departs at 09:40.", "Flight to Oslo leaves at 9:40."},
	} {
		if !SameClaims(p[0], p[1]) {
			t.Errorf("%q / %q: not the same claims (%v / %v)", p[0], p[1], Extract(p[0]), Extract(p[1]))
		}
	}
	for _, p := range [][2]string{
		{"Bob works at Acme Corp.", "Bob works at Acme Corp because he likes the team."},
		{"Bob works at Acme Corp.", "Bob works at Globex."},
		{"Bob works at Acme Corp.", "Bob does not work at Acme Corp."},
		{"Dana's manager is Priya.", "Priya's manager is Dana."},
		{"The user likes jazz.", "The user likes jazz and blues."},
		{"Bob works at Acme Corp.", "Bob works with Acme Corp."},
		{"The package was shipped to Berlin.", "The package was shipped from Berlin."},
		{"The flight to Oslo is delayed.", "The flight from Oslo is delayed."},
	} {
		if SameClaims(p[0], p[1]) {
			t.Errorf("%q / %q: read as the same claims", p[0], p[1])
		}
	}
}

// A title before a name and a place's derived name change nobody named.
func TestHonorificsAndDemonyms(t *testing.T) {
	for _, p := range [][2]string{
		{"Miss Novikova said the tour was cancelled.", "Ms. Novikova said the tour was cancelled."},
		{"The delegation from Iraq arrived on Monday.", "The Iraqi delegation arrived on Monday."},
		{"Adm. Gehman chairs the board.", "Gehman chairs the board."},
	} {
		if d, ok := nameDiff(p[0], p[1], DefaultLexicon()); ok {
			t.Errorf("%q / %q: %s", p[0], p[1], d.Explanation)
		}
	}
	for _, p := range [][2]string{
		{"The delegation from Russia arrived on Monday.", "The delegation from the USSR arrived on Monday."},
		{"Ms. Novikova said the tour was cancelled.", "Ms. Volochkova said the tour was cancelled."},
		{"Mr. Smith paid the invoice.", "Mrs. Smith paid the invoice."},
		{"John Smith Jr. owns the house.", "John Smith Sr. owns the house."},
	} {
		if _, ok := nameDiff(p[0], p[1], DefaultLexicon()); !ok {
			t.Errorf("%q / %q: no name differs", p[0], p[1])
		}
	}
}

// A word one text writes twice lines up with the other's once wherever the
// order allows.
func TestSameOrderRepeatedWord(t *testing.T) {
	if r := Compare("The ministry said the ministry may issue a statement.", "The ministry said it may issue a statement.").Resolve(); r != ResolveDuplicate {
		t.Errorf("a repeated word read as out of order: %s", r)
	}
	if sameOrder([]string{"acme", "acquire", "globex"}, []string{"globex", "acquire", "acme"}) {
		t.Error("a role swap read as in order")
	}
	if !sameOrder([]string{"a", "b", "a", "c"}, []string{"b", "a", "c"}) || sameOrder([]string{"a", "b", "c"}, []string{"b", "a", "c"}) {
		t.Error("sameOrder on repeated words")
	}
}

// Word-swap pairs in the manner of PAWS (the same words, another meaning)
// never read as a duplicate or a merge, whichever order rule is tried on
// them; their paraphrases with a phrase moved do.
func TestWordSwapPairs(t *testing.T) {
	for _, p := range [][2]string{
		{"Flights from New York to Florida are cheap in May.", "Flights from Florida to New York are cheap in May."},
		{"In May, flights from Oslo to Rome are cheap.", "Flights from Rome to Oslo are cheap in May."},
		{"The cache is cleared before the deploy.", "The deploy is cleared before the cache."},
		{"Before the deploy, the cache is cleared.", "The cache is cleared after the deploy."},
		{"Alice joined Acme in 2019 and left in 2021.", "Alice joined Acme in 2021 and left in 2019."},
		{"In 2019 Alice joined Acme and in 2021 Bob left.", "In 2021 Alice joined Acme and in 2019 Bob left."},
		{"The backup runs at 2 am and the report at 6 am.", "The backup runs at 6 am and the report at 2 am."},
		{"On Monday Alice deploys and on Friday Bob reviews.", "On Friday Alice deploys and on Monday Bob reviews."},
		{"The primary is in Oslo and the replica is in Rome.", "The primary is in Rome and the replica is in Oslo."},
		{"The staging database is slower than production.", "Production is slower than the staging database."},
		{"The user prefers tea in the morning and coffee at night.", "The user prefers coffee in the morning and tea at night."},
		{"Customer 42 is allergic to peanuts, not to shellfish.", "Customer 42 is allergic to shellfish, not to peanuts."},
		{"With Bob, Alice founded Acme.", "With Alice, Bob founded Acme."},
		{"By Friday, Alice must review Bob's patch.", "By Friday, Bob must review Alice's patch."},
		{"The service quickly fails over and slowly recovers.", "The service slowly fails over and quickly recovers."},
		{"After the outage, Alice paged Bob.", "Bob paged Alice after the outage."},
		{"Every night the job copies prod to staging.", "The job copies staging to prod every night."},
		{"If the disk is full, delete old logs.", "If old logs are full, delete the disk."},
		{"The team lead for payments is Arjun.", "The team lead for Arjun is payments."},
		{"Dana moved from Lisbon to Berlin in 2020.", "In 2020 Dana moved from Berlin to Lisbon."},
		{"Iran supplies Iraq.", "Iraq supplies Iran."},
		{"The Iraqi delegation met the Iranian delegation.", "The Iranian delegation met the Iraqi delegation."},
	} {
		if r := Compare(p[0], p[1]).Resolve(); r == ResolveDuplicate || r == ResolveMerge {
			t.Errorf("%q / %q: %s (%v)", p[0], p[1], r, Compare(p[0], p[1]))
		}
	}
	for _, p := range [][2]string{
		{"Sales rose sharply in Europe.", "Sales rose in Europe sharply."},
		{"After the outage, Alice paged Bob.", "Alice paged Bob after the outage."},
		{"Dana moved from Lisbon to Berlin in 2020.", "In 2020 Dana moved from Lisbon to Berlin."},
		{"The limit is 100 requests per minute for free users.", "For free users the limit is 100 requests per minute."},
	} {
		if r := Compare(p[0], p[1]).Resolve(); r != ResolveDuplicate {
			t.Errorf("%q / %q: %s (%v), want a duplicate", p[0], p[1], r, Compare(p[0], p[1]))
		}
	}
}

// The two sides of one coordination may change places; sides that are not
// exactly the words around the conjunction, or sides an order word ranks,
// may not.
func TestCoordinationSwap(t *testing.T) {
	for _, p := range [][2]string{
		{"The company makes tents and backpacks.", "The company makes backpacks and tents."},
		{"Alice and Bob own the billing repository.", "Bob and Alice own the billing repository."},
		{"The user speaks French and German.", "The user speaks German and French."},
		{"The primary is in Oslo and the replica is in Rome.", "The replica is in Rome and the primary is in Oslo."},
	} {
		if r := Compare(p[0], p[1]).Resolve(); r != ResolveDuplicate {
			t.Errorf("%q / %q: %s, want a duplicate", p[0], p[1], r)
		}
	}
	for _, p := range [][2]string{
		{"The primary is in Oslo and the replica is in Rome.", "The primary is in Rome and the replica is in Oslo."},
		{"Alice and Bob finished first and second.", "Bob and Alice finished first and second."},
		{"Alice called Bob and then Carol.", "Alice called Carol and then Bob."},
		{"Alice reports to Bob and Carol reports to Dave.", "Alice reports to Dave and Carol reports to Bob."},
		{"Alice beat Bob and Carol.", "Bob beat Alice and Carol."},
		{"Refunds go to Alice, and disputes go to Bob.", "Refunds go to Bob, and disputes go to Alice."},
	} {
		if r := Compare(p[0], p[1]).Resolve(); r == ResolveDuplicate || r == ResolveMerge {
			t.Errorf("%q / %q: %s", p[0], p[1], r)
		}
	}
}

// A mixed number is one value however it is written.
func TestMixedNumbers(t *testing.T) {
	for _, s := range []string{"It holds 2 ½ servings.", "It holds 2½ servings.", "It holds 2 1/2 servings."} {
		q := quantities(s)
		if len(q) != 1 || q[0].Num != 2.5 {
			t.Errorf("%q: %v, want one value 2.5", s, q)
		}
		if r := Compare("It holds 2.5 servings.", s).Resolve(); r != ResolveDuplicate {
			t.Errorf("%q after 2.5: %s", s, r)
		}
	}
	if q := quantities("The call takes ¾ of an hour."); len(q) != 1 || q[0].Num != 0.75 {
		t.Errorf("a fraction alone: %v", q)
	}
	if Compare("It holds 2 ½ servings.", "It holds 2 ¾ servings.").Conflict == nil {
		t.Error("2 ½ and 2 ¾ read as one value")
	}
}

// An abbreviated month with its dot is still a month.
func TestAbbreviatedMonth(t *testing.T) {
	for _, s := range []string{"It happened Nov. 11 at the school.", "It happened November 11 at the school.", "It happened Nov 11 at the school."} {
		q := quantities(s)
		if len(q) != 1 || q[0].Kind != KindDate || q[0].Month != 11 || q[0].Day != 11 {
			t.Errorf("%q: %v, want November 11", s, q)
		}
	}
	if q := quantities("Revenue fell in Sept. 2003."); len(q) != 1 || q[0].Year != 2003 || q[0].Month != 9 {
		t.Errorf("Sept. 2003: %v", q)
	}
	for _, q := range quantities("The launch moved to May. 2003 was a hard year.") {
		if q.Kind == KindDate && q.Year == 2003 {
			t.Errorf("a full month name ends its sentence, but was read with the next one's year: %v", q)
		}
	}
}

// An attribute given and denied, and another colour of one thing, are a
// contradiction; the same words about different things are not.
func TestSceneAttributes(t *testing.T) {
	for _, p := range [][2]string{
		{"Two men walk in the park, one with a shaggy dog on a leash.", "The dog isn't shaggy."},
		{"We run an encrypted staging server.", "The staging server is not encrypted."},
		{"A man wearing a white t-shirt looks away.", "The man is wearing a red t-shirt."},
		{"A man sits on the floor while a woman watches.", "Noone is watching the man."},
		{"Alice has access to the prod database.", "No one has access to the prod database."},
	} {
		for _, q := range [][2]string{p, {p[1], p[0]}} {
			if v := Contradiction(q[0], q[1]); !v.Contradicts {
				t.Errorf("%q / %q: no contradiction", q[0], q[1])
			}
		}
	}
	for _, p := range [][2]string{
		{"A man in a white shirt and a woman in a red shirt talk.", "A woman in a red shirt talks."},
		{"The coffee is not hot.", "The tea is hot."},
		{"A red car passes a blue car.", "A blue car is parked."},
		{"A man in a grey coat waits.", "A man in a gray coat waits."},
		{"The dog is not shaggy haired.", "A shaggy dog sleeps."},
		{"The old server is not encrypted.", "The new server is encrypted and the old server is not."},
		{"The red team owns billing.", "The blue team owns search."},
		{"The red button restarts the server.", "The blue button stops the server."},
		{"The staging server is not encrypted.", "We run an encrypted production server."},
		{"The black dog isn't shaggy.", "A shaggy dog sleeps."},
		{"Nobody is swimming in the pool.", "A man swims in the ocean."},
		{"No one on the team uses Windows.", "Alice uses Windows at home."},
	} {
		if v := Contradiction(p[0], p[1]); v.Contradicts {
			t.Errorf("%q / %q: %s", p[0], p[1], v.Explanation)
		}
	}
}

// Another preposition before a shared word is another fact, though both
// are light words; prepositions of one role are not.
func TestPrepositionChange(t *testing.T) {
	for _, p := range [][2]string{
		{"The flight goes to Oslo.", "The flight goes from Oslo."},
		{"The package was shipped to Berlin.", "The package was shipped from Berlin."},
		{"Bob works at Acme.", "Bob works with Acme."},
		{"The cat sleeps on the bed.", "The cat sleeps under the bed."},
		{"The user is for the proposal.", "The user is against the proposal."},
		{"The meeting is before lunch.", "The meeting is after lunch."},
	} {
		d := Compare(p[0], p[1])
		if d.Conflict == nil || d.Resolve() != ResolveConflict {
			t.Errorf("%q / %q: %s (%v), want a conflict", p[0], p[1], d.Resolve(), d)
		}
	}
	for _, p := range [][2]string{
		{"Sheena Young of Child hoped the guidelines would help.", "Sheena Young for Child hoped the guidelines would help."},
		{"I must be at the wrong meeting.", "I must be in the wrong meeting."},
		{"Sales rose in 2019.", "Sales rose during 2019."},
		{"Bob works at Acme.", "Bob is employed by Acme."},
	} {
		if w, p1, q, ok := prepositionChange(p[0], p[1]); ok && !SameClaims(p[0], p[1]) {
			t.Errorf("%q / %q: %q governed by %q and %q read as a change", p[0], p[1], w, p1, q)
		}
	}
}

// Light words that carry the fact: a modal of another kind, and/or
// exchanged, an exception.
func TestLightWords(t *testing.T) {
	for _, p := range [][2]string{
		{"Admins must rotate keys monthly.", "Admins may rotate keys monthly."},
		{"Admins must rotate keys monthly.", "Admins should rotate keys monthly."},
		{"Refunds need a receipt and an ID.", "Refunds need a receipt or an ID."},
		{"Access is granted to contractors.", "Access is granted except to contractors."},
	} {
		if r := Compare(p[0], p[1]).Resolve(); r == ResolveDuplicate || r == ResolveMerge {
			t.Errorf("%q / %q: %s", p[0], p[1], r)
		}
		if len(Explain(p[0], p[1])) == 0 {
			t.Errorf("%q / %q: no difference rule fires", p[0], p[1])
		}
	}
	for _, p := range [][2]string{
		{"Admins can rotate keys.", "Admins may rotate keys."},
		{"She hoped the guidelines would help.", "She said the guidelines should help."},
		{"The user must rotate keys.", "The user has to rotate keys."},
	} {
		if _, _, ok := modalChange(p[0], p[1]); ok {
			t.Errorf("%q / %q: read as another modal", p[0], p[1])
		}
	}
}

// A unit never stands for another unit, though WordNet lists "second" and
// "minute" together for "a moment".
func TestUnitsDoNotPair(t *testing.T) {
	for _, p := range [][2]string{
		{"The limit is 10 requests per second.", "The limit is 10 requests per minute."},
		{"Backups are kept for 30 days.", "Backups are kept for 30 hours."},
	} {
		if r := Compare(p[0], p[1]).Resolve(); r == ResolveDuplicate || r == ResolveMerge {
			t.Errorf("%q / %q: %s", p[0], p[1], r)
		}
	}
}

// Access states agents record exclude each other.
func TestAccessAntonyms(t *testing.T) {
	for _, p := range [][2]string{
		{"The firewall allows port 22.", "The firewall blocks port 22."},
		{"The bot is online.", "The bot is offline."},
	} {
		if v := Contradiction(p[0], p[1]); !v.Contradicts {
			t.Errorf("%q / %q: no contradiction", p[0], p[1])
		}
	}
}

// Claims about another time, another scope or a kind of the subject do not
// contradict; the same claim with another value still does.
func TestClaimTimeScopeAndKind(t *testing.T) {
	for _, p := range [][2]string{
		{"Alice lives in Berlin.", "Alice lived in Munich in 2015."},
		{"Bob's manager is Priya.", "Bob's manager was Tomás until 2022."},
		{"The user prefers email.", "The user prefers phone calls for urgent issues."},
		{"The office opens at 9 am.", "The office opens at 10 am on Saturdays."},
		{"The price is $20.", "The price for students is $10."},
		{"The meeting is on Monday.", "The retro meeting is on Friday."},
		{"Tokens expire after 30 days.", "Refresh tokens expire after 90 days."},
	} {
		if v := Contradiction(p[0], p[1]); v.Contradicts {
			t.Errorf("%q / %q: %s", p[0], p[1], v.Explanation)
		}
	}
	for _, p := range [][2]string{
		{"Alice lives in Berlin.", "Alice lives in Munich."},
		{"Bob's manager was Priya.", "Bob's manager was Tomás."},
		{"The team lead for payments is Arjun.", "The team lead for payments is Mei."},
		{"The release is scheduled for 14 November 2025.", "The release is scheduled for 2 December 2025."},
		{"The user prefers email for invoices.", "The user prefers phone calls for invoices."},
		{"Sharma's manager is Priya.", "Anita Sharma's manager is Tomás."},
	} {
		if v := Contradiction(p[0], p[1]); !v.Contradicts {
			t.Errorf("%q / %q: no contradiction", p[0], p[1])
		}
	}
}

// A text that leaves out a hedge, an intention or the head of a
// possessive states another fact, though every word it keeps is in the
// other: it is not a duplicate.
func TestDroppedQualifiers(t *testing.T) {
	for _, p := range [][2]string{
		{"The test almost passed.", "The test passed."},
		{"The migration is nearly done.", "The migration is done."},
		{"Half of the nodes are down.", "The nodes are down."},
		{"Most users enabled MFA.", "Users enabled MFA."},
		{"Bob wants to leave the team.", "Bob left the team."},
		{"Alice's sister lives in Oslo.", "Alice lives in Oslo."},
	} {
		for _, q := range [][2]string{p, {p[1], p[0]}} {
			if r := Compare(q[0], q[1]).Resolve(); r == ResolveDuplicate || r == ResolveMerge {
				t.Errorf("%q / %q: %s (%v)", q[0], q[1], r, Compare(q[0], q[1]))
			}
		}
	}
	for _, p := range [][2]string{
		{"The user's timezone is Europe/Berlin.", "User timezone: Europe/Berlin."},
		{"The shuttle's reentry was fatal.", "The shuttle's re-entry was fatal."},
		{"NEC is pitching its gear to hospitals.", "NEC's pitching its gear to hospitals."},
		{"The peace plan stalled in May.", "The peace plan stalled in May, he said."},
	} {
		if r := Compare(p[0], p[1]).Resolve(); r == ResolveConflict {
			t.Errorf("%q / %q: %s (%v)", p[0], p[1], r, Compare(p[0], p[1]))
		}
	}
}

// A name written twice in the old text and once in the new one was put
// for another: the new text does not only add.
func TestRepeatedNameReplaced(t *testing.T) {
	for _, p := range [][2]string{
		{"Apple A5 was created by Apple.", "Apple A5 was created by Google."},
		{"Bob told Bob's manager about the outage.", "Bob told Alice's manager about the outage."},
		{"Room 12 is next to room 12B.", "Room 12 is next to room 14B."},
	} {
		d := Compare(p[0], p[1])
		if d.Conflict == nil && len(d.Dropped) == 0 {
			t.Errorf("%q -> %q: %s, want a dropped value", p[0], p[1], d)
		}
		if r := d.Resolve(); r != ResolveConflict {
			t.Errorf("%q -> %q resolves %q: %s", p[0], p[1], r, d)
		}
	}
	// A name written twice in both texts is no change.
	if d := Compare("Bob told Bob's manager.", "Bob told Bob's manager about it."); len(d.Dropped) != 0 {
		t.Errorf("dropped %v", d.Dropped)
	}
}

// A passive with an agent that names a role holds one value at a time,
// and a subject "the R of X" whose predicate states a relation of its own
// is the whole phrase.
func TestPassiveRolesAndOfSubjects(t *testing.T) {
	for _, p := range [][2]string{
		{"Windows 10 was developed by Microsoft.", "Windows 10 was developed by IBM."},
		{"BBC One is owned by the BBC.", "BBC One is owned by Disney."},
		{"The billing service is maintained by Team Atlas.", "The billing service is maintained by Team Orion."},
		{"Autonomous University of Madrid is located in Spain.", "Autonomous University of Madrid is located in Sweden."},
		{"The Bank of England is based in London.", "The Bank of England is based in Leeds."},
	} {
		if v := Contradiction(p[0], p[1]); !v.Contradicts {
			t.Errorf("%q / %q: no contradiction", p[0], p[1])
		}
	}
	for _, p := range [][2]string{
		{"Windows 10 was developed by Microsoft.", "Windows 10 was released in 2015."},
		{"The app was founded by Ana.", "The app was founded by Luis."},
		{"The University of Oslo is located in Norway.", "The University of Bergen is located in Norway."},
	} {
		if v := Contradiction(p[0], p[1]); v.Contradicts {
			t.Errorf("%q / %q: %s", p[0], p[1], v.Explanation)
		}
	}
	// The two voices state one claim.
	if !SameClaims("Ravi owns the billing service.", "The billing service is owned by Ravi.") {
		t.Error("active and passive read as other claims")
	}
	if Fingerprint("Ravi owns the billing service.") != Fingerprint("The billing service is owned by Ravi.") {
		t.Error("active and passive fingerprints differ")
	}
}

// Persona facts as people state them: an attitude and its opposite,
// having none and having some, and where one grew up.
func TestPersonaContradictions(t *testing.T) {
	for _, p := range [][2]string{
		{"I hate cats.", "I love cats."},
		{"I have three kids.", "I have no children."},
		{"The cluster has no GPUs.", "The cluster has 4 GPUs."},
		{"I grew up in Canada.", "I grew up in Mexico."},
		{"Ana was raised in Lima.", "Ana grew up in Quito."},
	} {
		if v := Contradiction(p[0], p[1]); !v.Contradicts {
			t.Errorf("%q / %q: no contradiction", p[0], p[1])
		}
	}
	for _, p := range [][2]string{
		{"I have no children.", "I have two cats."},
		{"The cluster has no idle GPUs.", "The cluster has 4 GPUs."},
		{"Revenue grew in 2023.", "Revenue grew in 2024."},
		{"I hate cats.", "I love dogs."},
	} {
		if v := Contradiction(p[0], p[1]); v.Contradicts {
			t.Errorf("%q / %q: %s", p[0], p[1], v.Explanation)
		}
	}
}

// Two prepositional phrases exchanged whole are one statement; the same
// prepositions around exchanged objects are another; "only" restricts
// what follows it.
func TestPhraseSwapAndFocus(t *testing.T) {
	for _, p := range [][2]string{
		{"The flight from Boston to Denver was delayed.", "The flight to Denver from Boston was delayed."},
		{"The meeting was moved from Tuesday to Thursday.", "The meeting was moved to Thursday from Tuesday."},
	} {
		if d := Compare(p[0], p[1]); d.Resolve() != ResolveDuplicate {
			t.Errorf("%q / %q: %s, want a duplicate", p[0], p[1], d)
		}
	}
	for _, p := range [][2]string{
		{"The release moved from Monday to Friday.", "The release moved to Monday from Friday."},
		{"The package went from Oslo to Rome.", "The package went from Rome to Oslo."},
		{"Only admins can delete projects.", "Admins can only delete projects."},
		{"Admins can delete projects.", "Only admins can delete projects."},
	} {
		if d := Compare(p[0], p[1]); d.Resolve() != ResolveConflict {
			t.Errorf("%q / %q: %s resolves %q", p[0], p[1], d, d.Resolve())
		}
	}
}

// The bound written before a number and a time that points from now are
// part of the fact: "up to five" / "at least five", "last week" / "this
// week". A number written as a word, or a time left out, is not a bound.
func TestBoundsAndDeixis(t *testing.T) {
	for _, p := range [][2]string{
		{"Up to five people can join the call.", "At least five people can join the call."},
		{"Five people can join the call.", "Up to five people can join the call."},
		{"The fee is no more than $20.", "The fee is no less than $20."},
		{"The test failed twice last week.", "The test failed twice this week."},
		{"The report is due next Monday.", "The report is due this Monday."},
		{"Teams of 5 or fewer people get a discount.", "Teams of 5 or more people get a discount."},
	} {
		if d := Compare(p[0], p[1]); d.Resolve() != ResolveConflict {
			t.Errorf("%q / %q: %s resolves %q", p[0], p[1], d, d.Resolve())
		}
	}
	for _, p := range [][2]string{
		{"Carol is 34 years old.", "Carol is thirty-four years old."},
		{"The kidnappers resisted the assault this morning.", "The kidnappers resisted the assault."},
	} {
		if _, ok := lightWordDiff(p[0], p[1]); ok {
			t.Errorf("%q / %q: a light-word difference", p[0], p[1])
		}
	}
}

// Conversation turns: a speaker's label or a clock time is not the scene,
// antonyms must be said of the same subject in one statement, a question
// states nothing, and a label names who "I" is.
func TestConversationTurns(t *testing.T) {
	for _, p := range [][2]string{
		{"Ben: I went kayaking, climbing, and horseback riding.", "Ben: Then, you have to walk to the office."},
		{"[4:11 pm] Tom: The radio has too many ads.", "[4:40 pm] Tom: I have a few ideas."},
		{"Lena: I was nervous about giving my first talk.", "Lena: My friends kept taking photos."},
		{"Aisha: Good for her. How old is she, by the way?", "Aisha: Her car is new."},
		{"Maya: I love hiking.", "Tom: I hate hiking."},
		{"You like the blue one.", "You do not like the blue one."},
	} {
		if v := Contradiction(p[0], p[1]); v.Contradicts {
			t.Errorf("%q / %q: %s", p[0], p[1], v.Explanation)
		}
	}
	for _, p := range [][2]string{
		{"Maya: I love hiking.", "Maya: I hate hiking."},
		{"[3:45 pm] Maya: I live in Lyon.", "[4:02 pm] Maya: I live in Porto."},
		{"[9:00 am] Tom: The man is standing.", "[9:05 am] Ben: The man is sitting."},
	} {
		if v := Contradiction(p[0], p[1]); !v.Contradicts {
			t.Errorf("%q / %q: no contradiction", p[0], p[1])
		}
	}
	// Speech between people is not a scene: offers, requests, conditions
	// and answers do not put their first word in exclusive states, and
	// words of amount or rank are not states.
	for _, p := range [][2]string{
		{"I can give you the tent if you take the stove.", "I would take the tent and give you the stove."},
		{"If it rains we stay home.", "If it is sunny we go away."},
		{"Need the rope most.", "Need the rope least."},
		{"Sounds good to me.", "Sounds bad to me."},
		{"Hope you sleep well.", "Hope you are hiking well."},
	} {
		for _, q := range [][2]string{p, {p[1], p[0]}} {
			if v := Contradiction(q[0], q[1]); v.Contradicts {
				t.Errorf("%q / %q: %s", q[0], q[1], v.Explanation)
			}
		}
	}
	// A denial compares the whole value: a narrower value denied leaves
	// the wider one standing; the wider one denied denies the narrower.
	for _, p := range [][2]string{
		{"Maya: I am good.", "Maya: I am not good at chess."},
		{"Maya: I need rope and tape.", "Maya: I do not need too much rope."},
	} {
		for _, q := range [][2]string{p, {p[1], p[0]}} {
			if v := Contradiction(q[0], q[1]); v.Contradicts {
				t.Errorf("%q / %q: %s", q[0], q[1], v.Explanation)
			}
		}
	}
	for _, p := range [][2]string{
		{"Maya: I never drink tea.", "Maya: I drink tea every evening."},
		{"Maya: I am not good at chess.", "Maya: I am good at chess."},
		{"A boy is sitting on a bench.", "A boy is standing on a bench."},
		{"Hikers sitting by a lake.", "The hikers are standing."},
	} {
		if v := Contradiction(p[0], p[1]); !v.Contradicts {
			t.Errorf("%q / %q: no contradiction", p[0], p[1])
		}
	}
	if cs := Extract("[3:45 pm] Maya: I live in Lyon."); len(cs) != 1 || cs[0].Subject != "maya" {
		t.Errorf("the speaker is not the subject: %v", cs)
	}
	if cs := Extract("How old is she?"); len(cs) != 0 {
		t.Errorf("a question read as claims: %v", cs)
	}
}

// Support reads claims: a document's "Key: value" line and abbreviations
// state a claim in other words; another value in the same slot
// contradicts it; another relation, another numbered thing or several
// changed numbers are other facts.
func TestSupportReadsClaims(t *testing.T) {
	for _, p := range [][2]string{
		{"The data center in Frankfurt has 400 racks.", "Frankfurt DC capacity: 400 racks."},
		{"The on-call rotation changes every Monday.", "Hand-off: each Monday the on-call rotation changes."},
		{"Elena reports to Marco.", "Elena's manager: Marco."},
	} {
		if e := Support(p[0], p[1]); e.Contradicts || e.Score < 0.99 {
			t.Errorf("%q / %q: %+v, want full support", p[0], p[1], e)
		}
	}
	for _, p := range [][2]string{
		{"The data center in Frankfurt has 400 racks.", "Frankfurt DC capacity: 250 racks."},
		{"Dana's manager is Priya.", "Manager of Dana: Tomas."},
	} {
		if e := Support(p[0], p[1]); !e.Contradicts {
			t.Errorf("%q / %q: %+v, want a contradiction", p[0], p[1], e)
		}
	}
	for _, p := range [][2]string{
		{"The store closes at 8 pm.", "The store opens at 8 am."},
		{"The printer on floor 3 works.", "The printer on floor 2 is broken."},
		{"The client paid the first invoice on 30 March.", "The client signed the contract on 3 March."},
		{"A man is with two deer on a beach.", "A man with two dogs on a beach"},
		{"The data center in Frankfurt has 400 racks.", "Frankfurt office parking: 40 spaces."},
	} {
		if e := Support(p[0], p[1]); e.Contradicts || e.Score > 0.5 {
			t.Errorf("%q / %q: %+v, want neither support nor contradiction", p[0], p[1], e)
		}
	}
}

// The relation table: every row parses, a bad row is an error that says
// what is wrong, and its relations are read in all their forms.
func TestRelationTable(t *testing.T) {
	rows := Relations()
	if len(rows) < 15 {
		t.Fatalf("relations.tsv has %d rows", len(rows))
	}
	for _, bad := range []string{
		"born in\tsingle\t-",                      // a column missing
		"born in\tsometimes\t-\tv:born in",        // no such cardinality
		"born in\tsingle\t-\tx:born in",           // no such form kind
		"born in\tsingle\t-\tv:born in,v:born in", // a form twice
	} {
		if _, err := parseRelations(bad); err == nil {
			t.Errorf("%q parsed without an error", bad)
		}
	}
	for _, p := range [][2]string{
		{"Nokia is headquartered in Espoo.", "The headquarters of Nokia is in Oslo."},
		{"The head of state of Japan is the Emperor.", "The head of state of Japan is the Prime Minister."},
		{"Satya Nadella, the CEO of Microsoft, visited Delhi.", "The CEO of Microsoft is Sundar Pichai."},
		{"Greta Garbo, a native of Stockholm, starred in films.", "Greta Garbo was born in Helsinki."},
		{"Serena Williams plays tennis.", "Serena Williams plays golf."},
	} {
		if v := Contradiction(p[0], p[1]); !v.Contradicts || v.Rule != RuleSingleValued {
			t.Errorf("%q / %q: %+v, want a single-valued contradiction", p[0], p[1], v)
		}
	}
	// Multi-valued readings stay compatible: an instrument is not a sport.
	if v := Contradiction("Serena Williams plays tennis.", "Serena Williams plays the piano."); v.Contradicts {
		t.Errorf("tennis / piano: %s", v.Explanation)
	}
}

// Every rule a verdict can name is listed once, with a line of doc.
func TestRuleNames(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range append(ContradictionRules(), SupportRules()...) {
		if r.Name == "" || r.Doc == "" || seen[r.Name] {
			t.Errorf("rule %+v: empty or listed twice", r)
		}
		seen[r.Name] = true
	}
	for _, name := range []string{RuleSingleValued, RuleNegation, RuleAntonym, RuleRelationAntonym, RuleQuantity, RuleQuantityInText,
		RuleScene, RuleSceneDenied, RuleSceneNobody, RuleSceneColour, RuleSceneCount, RuleActivity} {
		if !seen[name] {
			t.Errorf("rule %s is not listed", name)
		}
	}
	v := Contradiction("Dana's manager is Priya.", "Dana's manager is Tomás.")
	if !strings.HasPrefix(v.Explanation, v.Rule+":") {
		t.Errorf("explanation %q does not start with its rule %s", v.Explanation, v.Rule)
	}
}
