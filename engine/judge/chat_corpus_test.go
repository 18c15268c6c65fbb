package judge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/judge"
	"github.com/memgov/memgov/engine/oplog"
)

// chatTurn is one record of testdata/corpora/chat.jsonl: a turn of an
// ordinary conversation between two people.
type chatTurn struct {
	Conversation int             `json:"conversation"`
	Turn         int             `json:"turn"`
	Speaker      string          `json:"speaker"`
	Text         string          `json:"text"`
	Source       json.RawMessage `json:"source"`
	Licence      string          `json:"licence"`
}

func loadChat(t testing.TB, name string) []chatTurn {
	return readCorpus(t, name, func(c chatTurn) bool { return len(c.Source) > 0 && c.Licence != "" && c.Text != "" })
}

// chatOutcome counts what the pipeline did with the turns of one variant.
type chatOutcome struct {
	turns, committed, contradiction, conflict, rejected, merged int
	// linked counts the committed turns linked NEAR_DUPLICATE to an
	// earlier turn, byLink the rule of each link.
	linked    int
	byLink    map[string]int
	byRule    map[string]int
	byOutcome map[string]int
	examples  []string
	dropped   []string
}

// chatPrefix is how a chat agent may write a turn: bare, after the
// speaker's name, or after a clock time and the speaker's name.
var chatPrefixes = []struct {
	name   string
	prefix func(c chatTurn, at time.Time) string
}{
	{"plain", func(chatTurn, time.Time) string { return "" }},
	{"speaker", func(c chatTurn, _ time.Time) string { return c.Speaker + ": " }},
	{"timestamp", func(c chatTurn, at time.Time) string {
		return "[" + strings.ToLower(at.Format("3:04 pm")) + "] " + c.Speaker + ": "
	}},
}

// episodeRef finds the stored item a contradiction's detail names.
var episodeRef = regexp.MustCompile(`episode ([0-9a-f-]{36})`)

// runChat writes every turn, in order, one turn a memory, to the EPISODIC
// layer of a fresh database, as a chat agent would: one memoryRef per
// conversation, the person's words as the evidence.
func runChat(t testing.TB, turns []chatTurn, prefix func(chatTurn, time.Time) string) chatOutcome {
	t.Helper()
	ctx := context.Background()
	e := newCorpusPipeline(t, "chat-agent", "chat", time.Date(2026, 3, 2, 15, 45, 0, 0, time.UTC))
	agent := e.Agent
	out := chatOutcome{byRule: map[string]int{}, byOutcome: map[string]int{}, byLink: map[string]int{}}
	conf := 0.9
	var rules []string
	for _, r := range judge.ContradictionRules() {
		rules = append(rules, r.Name)
	}
	// written maps a stored item or version to its text, so that a held
	// turn can be shown next to the turn it was found to contradict.
	written := map[string]string{}
	for i, c := range turns {
		at := e.Advance(time.Duration(40+i%5*20) * time.Second)
		text := prefix(c, at) + c.Text
		content, _ := json.Marshal(map[string]string{"text": text})
		res, err := e.Writes().Write(ctx, memgov.WriteRequest{SourceAgentID: agent, MemoryRef: fmt.Sprintf("chat/%s/c%03d", agent, c.Conversation),
			TargetLayer: memgov.Episodic, IdempotencyToken: fmt.Sprintf("chat-%06d", i), Content: content, Confidence: &conf,
			ObservationType: "session_summary", EvidenceRefs: []oplog.EvidenceRef{{SourceType: "HUMAN_INPUT", SourceURI: "chat://" + c.Speaker}}})
		if err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		for _, id := range []string{res.Key, res.ItemID} {
			if id != "" {
				written[id] = text
			}
		}
		out.turns++
		out.byOutcome[res.Status+" "+res.Reason]++
		switch {
		case res.Status == memgov.StatusCommitted:
			out.committed++
			if len(res.Links) > 0 {
				out.linked++
				out.byLink[res.Links[0].Rule]++
				if _, ok := judge.LookupRule(res.Links[0].Rule); !ok || res.Rule != res.Links[0].Rule {
					t.Errorf("turn %d linked by rule %q (result rule %q), not a row of the rule table", i, res.Links[0].Rule, res.Rule)
				}
			}
		case res.Reason == gate.ReasonContradiction:
			out.contradiction++
			rule := "?"
			for _, r := range rules {
				if strings.Contains(res.Detail, "("+r+":") {
					rule = r
					break
				}
			}
			out.byRule[rule]++
			if len(out.examples) < 100 {
				earlier := "?"
				if m := episodeRef.FindStringSubmatch(res.Detail); m != nil {
					if e, ok := written[m[1]]; ok {
						earlier = e
					}
				}
				out.examples = append(out.examples, fmt.Sprintf("%q against earlier %q: %s", text, earlier, res.Detail))
			}
		case res.Reason == gate.ReasonStructuralConflict || res.Reason == gate.ReasonSemanticConflict:
			out.conflict++
		}
		switch res.Status {
		case memgov.StatusRejected:
			out.rejected++
		case memgov.StatusMerged:
			out.merged++
		}
		if (res.Status == memgov.StatusRejected || res.Status == memgov.StatusMerged) && len(out.dropped) < 8 {
			out.dropped = append(out.dropped, fmt.Sprintf("%s %s %q: %s", res.Status, res.Reason, text, res.Detail))
		}
	}
	return out
}

// TestChatCorpus writes ordinary conversation turns through the write
// pipeline and measures how many a person is asked about as contradictions
// or conflicts (target at most 1%) and how many are discarded or merged
// (target at most 0.5%). A turn that says what an earlier turn said
// ("Hello!", "ok", "Thanks!") is another event: EPISODIC memory commits it
// linked to the earlier one (rules repeats-event, extends-event), so the
// second target is asserted on every variant, held-out ones included.
func TestChatCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("the chat corpus writes thousands of turns")
	}
	turns := loadChat(t, "chat.jsonl")
	for _, v := range chatPrefixes {
		t.Run(v.name, func(t *testing.T) {
			o := runChat(t, turns, v.prefix)
			held := logChat(t, v.name, o)
			if pct(held, o.turns) > 1 {
				t.Errorf("%s: %.2f%% of ordinary turns held for a person as contradictions or conflicts, want at most 1%%", v.name, pct(held, o.turns))
			}
			assertKept(t, v.name, o)
		})
	}
	// chat_heldout.jsonl holds later dialogues of the same source, which the
	// rules were not written from: its figure is reported, not asserted, as
	// the honest estimate of how the rules treat chat they have not seen.
	heldout := loadChat(t, "chat_heldout.jsonl")
	for _, v := range chatPrefixes {
		t.Run("heldout-"+v.name, func(t *testing.T) {
			o := runChat(t, heldout, v.prefix)
			logChat(t, "held-out "+v.name, o)
			assertKept(t, "held-out "+v.name, o)
		})
	}
}

// logChat reports one variant's outcome and returns how many turns were
// held for a person.
func logChat(t *testing.T, name string, o chatOutcome) int {
	t.Helper()
	held := o.contradiction + o.conflict
	t.Logf("%s: %d turns, committed %d (linked to an earlier turn %d), held as contradiction %d, as conflict %d (%.2f%%), rejected %d, merged %d (%.2f%%)",
		name, o.turns, o.committed, o.linked, o.contradiction, o.conflict, pct(held, o.turns), o.rejected, o.merged, pct(o.rejected+o.merged, o.turns))
	keys := make([]string, 0, len(o.byOutcome))
	for k := range o.byOutcome {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("  outcome %-40s %d", k, o.byOutcome[k])
	}
	rules := make([]string, 0, len(o.byRule))
	for r := range o.byRule {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	for _, r := range rules {
		t.Logf("  contradiction rule %-16s %d", r, o.byRule[r])
	}
	if testing.Verbose() {
		for _, ex := range o.examples {
			t.Logf("  held: %s", ex)
		}
		for _, ex := range o.dropped {
			t.Logf("  discarded or merged: %s", ex)
		}
	}
	links := make([]string, 0, len(o.byLink))
	for r := range o.byLink {
		links = append(links, r)
	}
	sort.Strings(links)
	for _, r := range links {
		t.Logf("  linked by rule %-16s %d", r, o.byLink[r])
	}
	return held
}

// assertKept fails the test when more than 0.5% of the turns were
// rejected or merged as duplicates, or when no turn was linked to an
// earlier one (a corpus of thousands of turns repeats its greetings: none
// linked means the dedup gate did not run).
func assertKept(t *testing.T, name string, o chatOutcome) {
	t.Helper()
	if pct(o.rejected+o.merged, o.turns) > 0.5 {
		t.Errorf("%s: %.2f%% of ordinary turns rejected or merged, want at most 0.5%%", name, pct(o.rejected+o.merged, o.turns))
	}
	if o.linked == 0 {
		t.Errorf("%s: no turn linked to an earlier one", name)
	}
}

func pct(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return 100 * float64(n) / float64(d)
}

// Through the write pipeline, a conversation turn written again to
// EPISODIC memory commits as its own item linked to the first
// (repeats-event), and one that says more is linked by extends-event; the
// first stays as it was. SESSION memory links a repeated turn the same
// way; WORKING memory, which the dedup gate does not read, commits it
// unlinked. Neither rejects it.
func TestRepeatedTurnsThroughThePipeline(t *testing.T) {
	ctx := context.Background()
	e := newCorpusPipeline(t, "chat-agent", "chat", time.Date(2026, 3, 2, 15, 45, 0, 0, time.UTC))
	conf := 0.9
	n := 0
	write := func(layer memgov.Layer, text string) memgov.WriteResult {
		t.Helper()
		n++
		e.Advance(time.Minute)
		content, _ := json.Marshal(map[string]string{"text": text})
		res, err := e.Writes().Write(ctx, memgov.WriteRequest{SourceAgentID: e.Agent, MemoryRef: "chat/chat-agent/c1", TargetLayer: layer,
			IdempotencyToken: fmt.Sprintf("turn-%d", n), Content: content, Confidence: &conf, ObservationType: "session_summary",
			EvidenceRefs: []oplog.EvidenceRef{{SourceType: "HUMAN_INPUT", SourceURI: "chat://maya"}}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	linked := func(r, to memgov.WriteResult, rule string) bool {
		return r.Status == memgov.StatusCommitted && r.ItemID != to.ItemID && r.Rule == rule && len(r.Links) == 1 &&
			r.Links[0].ItemID == to.ItemID && r.Links[0].Relation == "NEAR_DUPLICATE" && r.Links[0].Rule == rule
	}
	first := write(memgov.Episodic, "Thanks!")
	if first.Status != memgov.StatusCommitted || len(first.Links) != 0 {
		t.Fatalf("first turn: %+v", first)
	}
	if r := write(memgov.Episodic, "Thanks!"); !linked(r, first, judge.RuleRepeatsEvent) {
		t.Errorf("repeated turn: %s %s %q links %+v, want COMMITTED linked to %s by %s", r.Status, r.Reason, r.Detail, r.Links, first.Key, judge.RuleRepeatsEvent)
	}
	well := write(memgov.Episodic, "I'm doing well.")
	if r := write(memgov.Episodic, "I'm doing well. How are you?"); !linked(r, well, judge.RuleExtendsEvent) {
		t.Errorf("extending turn: %s %s %q links %+v, want COMMITTED linked to %s by %s", r.Status, r.Reason, r.Detail, r.Links, well.Key, judge.RuleExtendsEvent)
	}
	v, err := e.Host().Get(ctx, memgov.Owner, "chat/chat-agent/c1", well.Key)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(v.Content), `"I'm doing well."`) || v.ID != well.VersionID {
		t.Errorf("the earlier turn changed: %s (version %s, want %s)", v.Content, v.ID, well.VersionID)
	}
	a := write(memgov.Session, "See you tomorrow!")
	if r := write(memgov.Session, "See you tomorrow!"); !linked(r, a, judge.RuleRepeatsEvent) {
		t.Errorf("SESSION: repeated turn %s %s %q links %+v, want COMMITTED linked to %s by %s", r.Status, r.Reason, r.Detail, r.Links, a.Key, judge.RuleRepeatsEvent)
	}
	a = write(memgov.Working, "See you tomorrow!")
	if r := write(memgov.Working, "See you tomorrow!"); r.Status != memgov.StatusCommitted || r.ItemID == a.ItemID || len(r.Links) != 0 {
		t.Errorf("WORKING: repeated turn %s %s %q links %+v, want COMMITTED unlinked", r.Status, r.Reason, r.Detail, r.Links)
	}
}
