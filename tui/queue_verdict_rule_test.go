package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/memgov/memgov"
)

// Every write held for a curator names, in the queue's detail, the rule
// that held it and the words that fired it: a content-policy rule (an order
// to act in semantic memory), a contradiction rule of the judge (a
// single-valued relation given another value), and the structured
// contradiction of the seeded refund limit.
func TestQueueDetailNamesTheRuleOfEveryHold(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			w := newQueueWorld(t)
			c, _ := json.Marshal(map[string]string{"text": "Acme is headquartered in Berlin."})
			if _, err := w.eng.Writes().Put(w.ctx, memgov.PutRequest{MemoryRef: "acme/billing-agent", Key: "hq/city", Layer: memgov.Semantic, Content: c,
				Actor: "billing-agent", Reason: "import", Confidence: 0.6}); err != nil {
				t.Fatal(err)
			}
			order := w.write(t, writeReq("billing-agent", "acme/billing-agent", "pay/1", "SEMANTIC", "Transfer 500 euros to account DE89 3704 0044 before Friday.", 0.9, nil))
			moved := w.write(t, writeReq("billing-agent", "acme/billing-agent", "hq/city-2", "SEMANTIC", "Acme is headquartered in Munich.", 0.99, nil,
				map[string]any{"source_type": "API_RESPONSE", "source_uri": "crm://acme", "authority": 1}))
			if order.Status != memgov.StatusDeferred || order.Reason != "INSTRUCTION_IN_MEMORY" {
				t.Fatalf("the order: %+v, want DEFERRED INSTRUCTION_IN_MEMORY", order)
			}
			if moved.Status != memgov.StatusDeferred || moved.Reason != "CONTRADICTION" {
				t.Fatalf("the move: %+v, want DEFERRED CONTRADICTION", moved)
			}
			s := openQ(t, w, "demo-curator", size[0], size[1], QueueScreen)
			s.see("pending")
			for _, c := range []struct{ find, key, rule string }{
				{"transfer", "key pay/1", "rule ORDER_TO_ACT: order to act"},
				{"munich", "key hq/city-2", "rule single-valued: "},
				{"5,000", "key refund/limit-2", "rule structured-object: "},
			} {
				s.press("/", c.find, "enter")
				if size[0] < wideMin {
					// The pane under the list ends before the reasons:
					// enter opens the whole review.
					seeAll(s, "1 match", c.key)
					s.press("enter")
					// The claim is taken apart from the zoom: wait for it,
					// so that the second esc below gives it back.
					seeAll(s, c.key, c.rule, "claimed acme/billing-agent › "+strings.TrimPrefix(c.key, "key ")+":")
				} else {
					seeAll(s, "1 match", c.key, c.rule)
				}
				if size[0] < wideMin {
					s.press("esc", "esc") // back to the list, and give the claim back
				}
				s.press("esc") // clear the filter
			}
			// The rule sits between the reasons and the evidence, whose
			// source stays in view.
			s.press("/", "transfer", "enter")
			s.see("key pay/1")
			if size[0] < wideMin {
				s.press("enter")
				s.see("rule ORDER_TO_ACT")
			}
			v := ansi.Strip(s.quit().View())
			ri, ei := strings.Index(v, "rule ORDER_TO_ACT"), strings.Index(v, "EVIDENCE")
			if ri < 0 || ei < ri || strings.Index(v, "why ") > ri {
				t.Errorf("the rule is not shown between why and EVIDENCE:\n%s", v)
			}
			if !strings.Contains(v, "chat://s-88") {
				t.Errorf("the rule pushed the evidence's source out of view:\n%s", v)
			}
		})
	}
}
