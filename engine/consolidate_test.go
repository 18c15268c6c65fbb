package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/internal/enginetest"
	"github.com/memgov/memgov/lifecycle"
)

// consPut stores text (or a JSON content) under key in layer of ref,
// bypassing the write path's gates, as an import or an older build would
// have left it.
func consPut(t *testing.T, e *engine.Engine, ref, key string, layer memgov.Layer, content, actor string, conf float64) {
	t.Helper()
	if !strings.HasPrefix(content, "{") {
		content = string(enginetest.MustJSON(map[string]string{"text": content}))
	}
	if _, err := e.Writes().Put(context.Background(), memgov.PutRequest{MemoryRef: ref, Key: key, Layer: layer, Content: json.RawMessage(content),
		Confidence: conf, Actor: actor, Tags: []string{key}}); err != nil {
		t.Fatalf("put %s: %v", key, err)
	}
}

func consolidate(t *testing.T, e *engine.Engine, ref string) lifecycle.ConsolidateResult {
	t.Helper()
	r, err := e.Lifecycle().Consolidate(context.Background(), lifecycle.ConsolidateRequest{MemoryRef: ref, Actor: "acme-curator"})
	if err != nil {
		t.Fatalf("consolidate %s: %v", ref, err)
	}
	return r
}

func visibleKeys(t *testing.T, e *engine.Engine, ref string) []string {
	t.Helper()
	l, err := e.Host().Adapter(memgov.As("jane")).List(context.Background(), ref, host.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ks := enginetest.KeysOf(l)
	sort.Strings(ks)
	return ks
}

// checkSecondPassIdle: a second pass over the corpus a first one left
// finds nothing to do and writes only its CONSOLIDATE entry.
func checkSecondPassIdle(t *testing.T, e *engine.Engine, ref string, want int) {
	t.Helper()
	size, _ := e.Audit().LogSize(context.Background())
	r := consolidate(t, e, ref)
	if r.InputCount != want || r.OutputCount != want || r.Merged+r.Superseded+r.Strengthened != 0 || len(r.Changes) != 0 || len(r.Rules) != 0 {
		t.Fatalf("second pass: %+v", r)
	}
	if after, _ := e.Audit().LogSize(context.Background()); after != size+1 {
		t.Fatalf("second pass wrote %d entries, want only its CONSOLIDATE record", after-size)
	}
}

// Near entries that state different facts survive a pass: word swaps
// (also across a relative clause), another value of a multi-valued
// relation, and repeated or extended episodes. Each was read near and
// kept by a named rule.
func TestConsolidateKeepsDistinctFacts(t *testing.T) {
	e, _ := enginetest.Contract(t)
	const ref = "acme/support-bot"
	consPut(t, e, ref, "priya-1", memgov.Semantic, "Priya is the sister of Dev and the cousin of Anil.", "support-bot", 0.8)
	consPut(t, e, ref, "priya-2", memgov.Semantic, "Priya is the sister of Anil and the cousin of Dev.", "acme-curator", 0.8)
	consPut(t, e, ref, "mara-1", memgov.Semantic, "Mara was married to Jon, who ran the bakery on Elm Street.", "support-bot", 0.8)
	consPut(t, e, ref, "mara-2", memgov.Semantic, "Jon was married to Mara, who ran the bakery on Elm Street.", "support-bot", 0.8)
	// The same subject and predicate, another object: the triple an older
	// pass superseded. "speaks" holds many values.
	consPut(t, e, ref, "lena-fr", memgov.Semantic, `{"text":"Lena speaks French.","subject":"Lena","predicate":"speaks","object":"French"}`, "support-bot", 0.8)
	consPut(t, e, ref, "lena-de", memgov.Semantic, `{"text":"Lena speaks German.","subject":"Lena","predicate":"speaks","object":"German"}`, "support-bot", 0.8)
	consPut(t, e, ref, "lena-home-fr", memgov.Semantic, "Lena speaks French at home with her parents.", "support-bot", 0.8)
	consPut(t, e, ref, "lena-home-de", memgov.Semantic, "Lena speaks German at home with her parents.", "support-bot", 0.8)
	// Episodes: the same words said twice are two events; a later, longer
	// one is a third.
	consPut(t, e, ref, "turn-1", memgov.Episodic, "The user asked how to reset a password.", "support-bot", 0.8)
	consPut(t, e, ref, "turn-2", memgov.Episodic, "The user asked how to reset a password.", "support-bot", 0.8)
	consPut(t, e, ref, "turn-3", memgov.Episodic, "The user asked how to reset a password on the mobile app.", "support-bot", 0.8)
	// A single-valued edit in EPISODIC memory is what was said then and
	// what was said later: neither is superseded.
	consPut(t, e, ref, "said-1", memgov.Episodic, "Dana's manager is Tomas.", "support-bot", 0.8)
	consPut(t, e, ref, "said-2", memgov.Episodic, "Dana's manager is Priya.", "support-bot", 0.8)
	before := visibleKeys(t, e, ref)

	r := consolidate(t, e, ref)
	if r.InputCount != 13 || r.OutputCount != 13 || r.Merged != 0 || r.Superseded != 0 || len(r.Keys) != 0 || len(r.Changes) != 0 {
		t.Fatalf("a pass folded distinct facts: %+v", r)
	}
	if got := visibleKeys(t, e, ref); !reflect.DeepEqual(got, before) {
		t.Fatalf("after the pass %v, before %v", got, before)
	}
	// The near pairs above were put to the judge and kept by the rule
	// that told them apart (the short "Lena speaks ..." pair shares too
	// few words for a fold to be possible, and is not read).
	for _, rule := range []string{"reordered", "role-swap", "name-differs", "repeats-event", "extends-event"} {
		if r.Kept[rule] == 0 {
			t.Errorf("no pair kept by rule %s: kept %v", rule, r.Kept)
		}
	}
	if r.Kept["repeats-event"]+r.Kept["extends-event"] < 3 {
		t.Errorf("the three episodes are three near pairs: kept %v", r.Kept)
	}
	checkSecondPassIdle(t, e, ref, 13)
}

// Entries the judge proves another holds still fold: the same words, the
// same claims in other words, the same content, and a text another keeps
// every word of and adds to (into the superset, older or not). Each MERGE
// version names its rule, and the result counts them.
func TestConsolidateFoldsWhatTheJudgeProves(t *testing.T) {
	e, _ := enginetest.Contract(t)
	ctx := context.Background()
	const ref = "acme/support-bot"
	consPut(t, e, ref, "owner-1", memgov.Semantic, "The billing service is owned by Ravi.", "support-bot", 0.6)
	consPut(t, e, ref, "owner-2", memgov.Semantic, "Ravi owns the billing service.", "acme-curator", 0.7)
	consPut(t, e, ref, "pref-1", memgov.Semantic, "Customer 42 prefers email follow-up after every refund request.", "support-bot", 0.8)
	consPut(t, e, ref, "pref-2", memgov.Semantic, "Customer 42 prefers an email follow-up after every refund request.", "support-bot", 0.8)
	consPut(t, e, ref, "rotate-1", memgov.Procedural, "Rotate the API keys every 90 days.", "support-bot", 0.8)
	consPut(t, e, ref, "rotate-2", memgov.Procedural, "Rotate the API keys every 90 days.", "support-bot", 0.8)
	// The older entry says more: the newer, which it holds, folds into it.
	consPut(t, e, ref, "ship-long", memgov.Semantic, "Shipping to the EU takes four business days by courier.", "support-bot", 0.8)
	consPut(t, e, ref, "ship", memgov.Semantic, "Shipping to the EU takes four business days.", "support-bot", 0.8)
	consPut(t, e, ref, "lena", memgov.Semantic, "Lena speaks French.", "support-bot", 0.8)
	consPut(t, e, ref, "lena-both", memgov.Semantic, "Lena speaks French and German.", "support-bot", 0.8)

	r := consolidate(t, e, ref)
	want := map[string]lifecycle.ConsolidateChange{
		"owner-1":  {Key: "owner-1", Into: "owner-2", Action: lifecycle.ChangeMerged, Rule: "same-claims"},
		"pref-1":   {Key: "pref-1", Into: "pref-2", Action: lifecycle.ChangeMerged, Rule: "same-words"},
		"rotate-1": {Key: "rotate-1", Into: "rotate-2", Action: lifecycle.ChangeMerged, Rule: "exact-hash"},
		"ship":     {Key: "ship", Into: "ship-long", Action: lifecycle.ChangeMerged, Rule: "strict-superset"},
		"lena":     {Key: "lena", Into: "lena-both", Action: lifecycle.ChangeMerged, Rule: "strict-superset"},
	}
	got := map[string]lifecycle.ConsolidateChange{}
	for _, c := range r.Changes {
		c.Words = nil
		got[c.Key] = c
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("changes:\n got %+v\nwant %+v", got, want)
	}
	if r.InputCount != 10 || r.Merged != 5 || r.Superseded != 0 || r.OutputCount != 5 ||
		!reflect.DeepEqual(r.Rules, map[string]int{"same-claims": 1, "same-words": 1, "exact-hash": 1, "strict-superset": 2}) {
		t.Fatalf("result: %+v", r)
	}
	if ks := visibleKeys(t, e, ref); !reflect.DeepEqual(ks, []string{"lena-both", "owner-2", "pref-2", "rotate-2", "ship-long"}) {
		t.Fatalf("after the pass: %v", ks)
	}
	jane := e.Host().Adapter(memgov.As("jane"))
	// Two writers stated the same claims: the survivor's confidence rises.
	v, _ := jane.GetVersion(ctx, ref, "owner-2")
	if v.Confidence <= 0.7 || !reflect.DeepEqual(v.Tags, []string{"owner-2", "owner-1"}) || v.MergedFrom == "" ||
		!strings.Contains(v.Reason, "merged near-duplicate owner-1") || !strings.Contains(v.Reason, "[rule same-claims") {
		t.Fatalf("owner-2: %+v", v)
	}
	if r.Strengthened != 1 {
		t.Fatalf("strengthened %d, want 1 (owner-2)", r.Strengthened)
	}
	// The superset keeps its own content, which holds what the other said.
	s, _ := jane.GetVersion(ctx, ref, "ship-long")
	if s.Text() != "Shipping to the EU takes four business days by courier." || !strings.Contains(s.Reason, "[rule strict-superset") {
		t.Fatalf("ship-long: %s (%s)", s.Text(), s.Reason)
	}
	checkSecondPassIdle(t, e, ref, 5)
}

// A stale fact is superseded only on a single-valued relation the judge
// reads as contradicted (the relation table and the policy's
// cardinalities); a multi-valued relation keeps every value.
func TestConsolidateSupersedesSingleValuedEdits(t *testing.T) {
	e, _ := enginetest.Contract(t)
	ctx := context.Background()
	const ref = "acme/support-bot"
	consPut(t, e, ref, "manager-old", memgov.Semantic, "Dana's manager is Tomas.", "support-bot", 0.8)
	consPut(t, e, ref, "home-old", memgov.Semantic, "Alice lives in Berlin.", "support-bot", 0.8)
	consPut(t, e, ref, "lena-fr", memgov.Semantic, "Lena speaks French.", "support-bot", 0.8)
	consPut(t, e, ref, "manager-new", memgov.Semantic, "Dana's manager is Priya.", "support-bot", 0.8)
	consPut(t, e, ref, "home-new", memgov.Semantic, "Alice lives in Lisbon.", "support-bot", 0.8)
	consPut(t, e, ref, "lena-de", memgov.Semantic, "Lena speaks German.", "support-bot", 0.8)

	r := consolidate(t, e, ref)
	if r.Merged != 0 || r.Superseded != 2 || r.OutputCount != 4 || !reflect.DeepEqual(r.Rules, map[string]int{"single-valued": 2}) {
		t.Fatalf("result: %+v", r)
	}
	if ks := visibleKeys(t, e, ref); !reflect.DeepEqual(ks, []string{"home-new", "lena-de", "lena-fr", "manager-new"}) {
		t.Fatalf("after the pass: %v", ks)
	}
	for _, c := range r.Changes {
		if c.Action != lifecycle.ChangeSuperseded || c.Rule != "single-valued" || c.Into != strings.TrimSuffix(c.Key, "-old")+"-new" {
			t.Fatalf("change %+v", c)
		}
	}
	v, _ := e.Host().Adapter(memgov.As("jane")).GetVersion(ctx, ref, "manager-new")
	if v.Text() != "Dana's manager is Priya." || !strings.Contains(v.Reason, "supersedes the stale fact manager-old") || !strings.Contains(v.Reason, "[rule single-valued]") {
		t.Fatalf("manager-new: %s (%s)", v.Text(), v.Reason)
	}
	checkSecondPassIdle(t, e, ref, 4)

	// The engine's judge reads the policy's cardinalities: where the
	// policy declares "live in" multi-valued (over the default list, which
	// holds it as single-valued), both homes stay.
	c := enginetest.NewClock(enginetest.T0)
	multi := enginetest.New(t, "contradiction:\n  multi_valued: [live in]\n", engine.WithClock(c.Now))
	enginetest.AddPrincipals(t, multi)
	consPut(t, multi, ref, "home-old", memgov.Semantic, "Alice lives in Berlin.", "support-bot", 0.8)
	consPut(t, multi, ref, "home-new", memgov.Semantic, "Alice lives in Lisbon.", "support-bot", 0.8)
	if r := consolidate(t, multi, ref); r.Superseded != 0 || r.OutputCount != 2 {
		t.Fatalf("a relation the policy declares multi-valued was superseded: %+v", r)
	}
}

// The result's new fields are JSON beside the published ones, which keep
// their names.
func TestConsolidateResultJSON(t *testing.T) {
	e, _ := enginetest.Contract(t)
	const ref = "acme/support-bot"
	consPut(t, e, ref, "a", memgov.Semantic, "Rotate the API keys every 90 days.", "support-bot", 0.8)
	consPut(t, e, ref, "b", memgov.Semantic, "Rotate the API keys every 90 days.", "support-bot", 0.8)
	b, err := json.Marshal(consolidate(t, e, ref))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if want := []string{"changes", "inputCount", "kept", "keys", "lsn", "memoryRef", "merged", "outputCount", "rules", "strengthened", "superseded"}; !reflect.DeepEqual(keys, want) {
		t.Fatalf("fields %v, want %v", keys, want)
	}
	if string(m["rules"]) != `{"exact-hash":1}` || string(m["changes"]) != `[{"key":"a","into":"b","action":"merged","rule":"exact-hash"}]` {
		t.Fatalf("json: %s", b)
	}
}

// BenchmarkConsolidate times a pass over n distinct SEMANTIC facts about
// shared subjects (every pair shares words; none folds), the judge's
// worst case short of n near-duplicates.
func BenchmarkConsolidate(b *testing.B) {
	for _, n := range []int{200, 1000, 2000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			e, _ := enginetest.Contract(b)
			ctx := context.Background()
			const ref = "acme/support-bot"
			people := []string{"Alice", "Bob", "Chen", "Dana", "Emeka", "Farah", "Goran", "Hana", "Ivo", "Jun"}
			things := []string{"the billing service", "the refund queue", "the EU warehouse", "the mobile app", "the data pipeline", "the search index", "the payroll job", "the support inbox"}
			verbs := []string{"maintains", "reviews", "audits", "monitors", "documents"}
			for i := 0; i < n; i++ {
				text := fmt.Sprintf("%s %s %s in region %d.", people[i%len(people)], verbs[(i/len(people))%len(verbs)], things[(i/7)%len(things)], i)
				if _, err := e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: ref, Key: fmt.Sprintf("fact/%d", i), Layer: memgov.Semantic,
					Content: enginetest.MustJSON(map[string]string{"text": text}), Confidence: 0.8, Actor: "support-bot"}); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for range b.N {
				r, err := e.Lifecycle().Consolidate(ctx, lifecycle.ConsolidateRequest{MemoryRef: ref, Actor: "acme-curator"})
				if err != nil || r.InputCount != n {
					b.Fatalf("%+v %v", r, err)
				}
			}
		})
	}
}

// consPair is one line of testdata/corpora/duplicate.jsonl.
type consPair struct {
	A, B, Label string
	Source      struct{ Split string }
}

// TestConsolidateDuplicateCorpus runs a pass over each pair of the
// duplicate corpus, the first text stored before the second, each pair in
// its own memoryRef: in SEMANTIC memory a pass folds a pair only where the
// write path's dedup gate would REJECT or MERGE one text against the other
// (so the pass drops no fold the gate proves, and adds none), and folds at
// most 1% of the distinct pairs; in EPISODIC memory it folds none.
func TestConsolidateDuplicateCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus")
	}
	f, err := os.ReadFile("../testdata/corpora/duplicate.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var pairs []consPair
	for _, line := range strings.Split(strings.TrimSpace(string(f)), "\n") {
		var p consPair
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, p)
	}
	e, _ := enginetest.Contract(t)
	pol := e.Policy()
	ctx := context.Background()
	type tally struct{ n, folded, superseded int }
	counts := map[string]*tally{}
	gateFolds := func(a, b string) bool {
		j, err := gate.JudgePair(ctx, &pol, memgov.Semantic, a, b)
		if err != nil {
			t.Fatal(err)
		}
		return j.Dedup.Verdict == gate.Reject || j.Dedup.Verdict == gate.Merge
	}
	gateDecided := func(a, b string) bool {
		j, err := gate.JudgePair(ctx, &pol, memgov.Semantic, a, b)
		if err != nil {
			t.Fatal(err)
		}
		return j.Dedup.Verdict != 0
	}
	compared, agree := 0, 0
	for i, p := range pairs {
		for _, layer := range []memgov.Layer{memgov.Semantic, memgov.Episodic} {
			ref := fmt.Sprintf("acme/%s-%d", strings.ToLower(string(layer)), i)
			consPut(t, e, ref, "a", layer, p.A, "support-bot", 0.8)
			consPut(t, e, ref, "b", layer, p.B, "support-bot", 0.8)
			r := consolidate(t, e, ref)
			if layer == memgov.Episodic {
				if r.Merged+r.Superseded != 0 {
					t.Errorf("EPISODIC %q / %q: a pass folded an episode: %+v", p.A, p.B, r)
				}
				continue
			}
			k := p.Label + "/" + p.Source.Split
			if counts[k] == nil {
				counts[k] = &tally{}
			}
			counts[k].n++
			counts[k].folded += r.Merged
			counts[k].superseded += r.Superseded
			if (p.Label == "distinct" && r.Merged > 0) || r.Superseded > 0 {
				t.Logf("%s: %q / %q: %+v", k, p.A, p.B, r.Changes)
			}
			// The write path's gate, both ways, where its dedup gate ran
			// (the contradiction gate did not end the write).
			if gateDecided(p.A, p.B) && gateDecided(p.B, p.A) {
				compared++
				if want := gateFolds(p.A, p.B) || gateFolds(p.B, p.A); want == (r.Merged > 0) {
					agree++
				} else {
					t.Errorf("%q / %q: pass merged %d, the dedup gate folds: %v (%+v)", p.A, p.B, r.Merged, want, r)
				}
			}
		}
	}
	distinct, distinctFolded := 0, 0
	for _, k := range sortedStringKeys(counts) {
		c := counts[k]
		t.Logf("%-24s pairs %3d  merged %3d  superseded %3d", k, c.n, c.folded, c.superseded)
		if strings.HasPrefix(k, "distinct/") {
			distinct += c.n
			distinctFolded += c.folded
		}
	}
	t.Logf("the pass and the dedup gate agree on %d of %d pairs the gate decides both ways", agree, compared)
	if 100*distinctFolded > distinct {
		t.Errorf("%d of %d distinct pairs merged (more than 1%%)", distinctFolded, distinct)
	}
}

func sortedStringKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
