package tui

import "testing"

// A write held for a curator beside a near-duplicate names, in the queue's
// detail pane, the judge rule that kept the two apart and the words that
// fired it: here two names swapped in a list, with one word added.
func TestQueueDetailNamesTheJudgeRule(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			w := newQueueWorld(t)
			w.write(t, writeReq("support-bot", "acme/support-bot", "kin/1", "EPISODIC", "Priya is the sister of Dev and the cousin of Anil.", 0.9, nil))
			w.write(t, writeReq("support-bot", "acme/support-bot", "kin/2", "EPISODIC", "Priya is the sister of Anil and the cousin of Dev, in Pune.", 0.9, nil))
			s := openQ(t, w, "demo-curator", size[0], size[1], QueueScreen)
			s.see("7 pending")
			s.press("/", "in pune", "enter")
			seeAll(s, "1 match", "key kin/2", "NEAR_DUPLICATE kin/1", "rule superset-reordered", `differs: adds "pune"`)
		})
	}
}
