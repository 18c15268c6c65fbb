package storetest

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/memgov/memgov"
)

var pipelineTests = []test{
	{"Idempotency", testIdempotent},
	{"OutcomesAndCounts", testOutcomes},
	{"Candidates", testCandidates},
	{"LightCandidates", testLightCandidates},
	{"LightBandCandidates", testLightBandCandidates},
	{"TopicCandidates", testTopicCandidates}, // topic.go
	{"TopicCandidatesRareWords", testTopicCandidatesRareWords},
	{"TopicCandidatesSharedWords", testTopicCandidatesSharedWords},
	{"TopicCandidatesOldRareText", testTopicCandidatesOldRareText},
	{"ModelVectors", testModelVectors}, // topic.go
	{"Features", testFeatures},         // features.go
	{"CitedItems", testCitedItems},
}

// Idempotent finds the record of a tokened write made since a time.
func testIdempotent(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	start := fx.c.Now()
	w := fx.committed("k", "Invoice 9 was paid in full.", func(m map[string]any) { m["idempotency_token"] = "tok-committed" })
	d := fx.write(func() map[string]any {
		m := request(executor, ref, "p", "Customer 7 wants invoices in German.")
		m["idempotency_token"] = "tok-deferred"
		return m
	}())
	if d.Status != memgov.StatusDeferred {
		t.Fatalf("want a deferred write, got %+v", d)
	}
	fx.view(func(tx memgov.ReadTx) error {
		rec, found, err := tx.Idempotent(fx.ctx, "tok-committed", start)
		if err != nil || !found {
			t.Fatalf("Idempotent = %v, %v", found, err)
		}
		if rec.Status != memgov.StatusCommitted || rec.ItemID != w.ItemID || rec.VersionID != w.VersionID || rec.Key != "k" || rec.CreatedAt.Before(start) {
			t.Errorf("committed record = %+v, write %+v", rec, w)
		}
		rec, found, err = tx.Idempotent(fx.ctx, "tok-deferred", start)
		if err != nil || !found || rec.Status != memgov.StatusDeferred || rec.ReviewID != d.ReviewID || rec.VersionID != d.VersionID {
			t.Errorf("deferred record = %+v, %v, %v; write %+v", rec, found, err, d)
		}
		if _, found, err := tx.Idempotent(fx.ctx, "tok-committed", fx.c.Now().Add(time.Hour)); err != nil || found {
			t.Errorf("a record older than since was found (%v, %v)", found, err)
		}
		if _, found, err := tx.Idempotent(fx.ctx, "tok-unknown", start); err != nil || found {
			t.Errorf("an unknown token was found (%v, %v)", found, err)
		}
		return nil
	})
}

// RecordOutcome stores outcomes that CountOutcomes and CountSessionCommits
// count by agent, layer, time, status and session.
func testOutcomes(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	t0 := fx.c.Now().Add(time.Hour)
	outcomes := []memgov.Outcome{
		{At: t0, Agent: "agent-a", Layer: memgov.Episodic, MemoryRef: "acme/agent-a", SessionID: "s1", Status: memgov.StatusCommitted, Latency: time.Millisecond},
		{At: t0.Add(time.Minute), Agent: "agent-a", Layer: memgov.Semantic, MemoryRef: "acme/agent-a", Status: memgov.StatusRejected, Reason: "SCHEMA_INVALID", Gate: "schema"},
		{At: t0.Add(2 * time.Minute), Agent: "agent-a", Layer: memgov.Episodic, MemoryRef: "acme/agent-a", SessionID: "s1", Status: memgov.StatusDeferred},
		{At: t0.Add(2 * time.Minute), Agent: "agent-a", Layer: memgov.Episodic, MemoryRef: "acme/agent-a", SessionID: "s1", Status: memgov.StatusRejected},
		{At: t0, Agent: "agent-b", Layer: memgov.Episodic, MemoryRef: "acme/agent-b", SessionID: "s1", Status: memgov.StatusMerged},
	}
	fx.update(func(tx memgov.Tx) error {
		for _, o := range outcomes {
			if err := tx.RecordOutcome(fx.ctx, o); err != nil {
				return err
			}
		}
		return nil
	})
	fx.view(func(tx memgov.ReadTx) error {
		for _, c := range []struct {
			what     string
			agent    string
			layer    memgov.Layer
			since    time.Time
			statuses []string
			want     int
		}{
			{"every outcome of a", "agent-a", "", t0, nil, 4},
			{"a's episodic outcomes", "agent-a", memgov.Episodic, t0, nil, 3},
			{"a's outcomes since a minute on", "agent-a", "", t0.Add(time.Minute), nil, 3},
			{"a's outcomes since later", "agent-a", "", t0.Add(3 * time.Minute), nil, 0},
			{"a's committed or deferred", "agent-a", "", t0, []string{memgov.StatusCommitted, memgov.StatusDeferred}, 2},
			{"a's rejected episodic", "agent-a", memgov.Episodic, t0, []string{memgov.StatusRejected}, 1},
			{"b's merged", "agent-b", "", t0, []string{memgov.StatusMerged}, 1},
			{"an unknown agent", "agent-c", "", t0, nil, 0},
		} {
			n, err := tx.CountOutcomes(fx.ctx, c.agent, c.layer, c.since, c.statuses...)
			if err != nil || n != c.want {
				t.Errorf("CountOutcomes(%s) = %d, %v; want %d", c.what, n, err, c.want)
			}
		}
		for _, c := range []struct {
			agent, session string
			want           int
		}{{"agent-a", "s1", 2}, {"agent-b", "s1", 1}, {"agent-a", "s2", 0}} {
			if n, err := tx.CountSessionCommits(fx.ctx, c.agent, c.session); err != nil || n != c.want {
				t.Errorf("CountSessionCommits(%s, %s) = %d, %v; want %d", c.agent, c.session, n, err, c.want)
			}
		}
		return nil
	})
}

// Candidates finds the live versions of a ref that share a content hash,
// fingerprint, subject or SimHash band, in the layers dedup compares.
func testCandidates(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	content := json.RawMessage(`{"text":"Customer 42 prefers email.","subject":"customer 42","predicate":"prefers","object":"email"}`)
	feat, err := fx.e.IndexFeatures(content)
	if err != nil {
		t.Fatal(err)
	}
	a := fx.put(ref, "c42/channel", "", func(p *memgov.PutRequest) { p.Content = content; p.Layer = memgov.Episodic })
	fx.put(ref, "working-copy", "", func(p *memgov.PutRequest) { p.Content = content; p.Layer = memgov.Working })
	sn := fx.put(ref, "session-note", "", func(p *memgov.PutRequest) { p.Content = content; p.Layer = memgov.Session })
	fx.put("acme/other", "c42/channel", "", func(p *memgov.PutRequest) { p.Content = content; p.Layer = memgov.Episodic })
	old := fx.put(ref, "old", "The office opens at nine.")
	fx.put(ref, "old", "The office opens at ten.")
	d := fx.deferred("c7/lang", "Customer 7 wants invoices in German.")
	var av, oldv memgov.Version
	fx.view(func(tx memgov.ReadTx) (err error) {
		if av, err = tx.Version(fx.ctx, a.VersionID); err != nil {
			return err
		}
		oldv, err = tx.Version(fx.ctx, old.VersionID)
		return err
	})
	bands := feat.Bands
	fx.view(func(tx memgov.ReadTx) error {
		for what, q := range map[string]memgov.CandidateQuery{
			"content hash": {MemoryRef: ref, ContentHash: av.ContentHash},
			"fingerprint":  {MemoryRef: ref, Fingerprint: feat.Fingerprint},
			"subject":      {MemoryRef: ref, Subject: feat.Subject},
			"bands":        {MemoryRef: ref, Bands: bands},
		} {
			cs, err := tx.Candidates(fx.ctx, q)
			if err != nil {
				return err
			}
			var c *memgov.Candidate
			for i := range cs {
				if !cs[i].Layer.Durable() || cs[i].State != memgov.Active && cs[i].State != memgov.Draft {
					t.Errorf("by %s: candidate %s is %s %s", what, cs[i].Key, cs[i].Layer, cs[i].State)
				}
				if cs[i].VersionID == a.VersionID {
					c = &cs[i]
				}
			}
			if c == nil {
				t.Errorf("by %s: the matching version is not a candidate (%d candidates)", what, len(cs))
				continue
			}
			if c.ItemID != a.ItemID || c.Key != "c42/channel" || c.Layer != memgov.Episodic || c.State != memgov.Active || c.ContentHash != av.ContentHash ||
				c.Text != "Customer 42 prefers email." || c.Subject != feat.Subject || c.Predicate != feat.Predicate || c.Object != feat.Object ||
				string(c.Fingerprint) != string(feat.Fingerprint) || len(c.Embedding) == 0 || c.CreatedBy != curator || c.Confidence != av.Confidence {
				t.Errorf("by %s: candidate = %+v", what, *c)
			}
		}
		// One layer's versions, SESSION included, when the query names it.
		cs, err := tx.Candidates(fx.ctx, memgov.CandidateQuery{MemoryRef: ref, ContentHash: av.ContentHash, Layer: memgov.Session})
		if err != nil || len(cs) != 1 || cs[0].VersionID != sn.VersionID || cs[0].Layer != memgov.Session {
			t.Errorf("the SESSION layer's candidates: %+v, %v; want the session note alone", cs, err)
		}
		if cs, err := tx.Candidates(fx.ctx, memgov.CandidateQuery{MemoryRef: ref}); err != nil || len(cs) != 0 {
			t.Errorf("a query without criteria = %d candidates, %v", len(cs), err)
		}
		if cs, err := tx.Candidates(fx.ctx, memgov.CandidateQuery{MemoryRef: ref, ContentHash: oldv.ContentHash}); err != nil || len(cs) != 0 {
			t.Errorf("a superseded version is a candidate: %+v, %v", cs, err)
		}
		if cs, err := tx.Candidates(fx.ctx, memgov.CandidateQuery{MemoryRef: "acme/nobody", ContentHash: av.ContentHash}); err != nil || len(cs) != 0 {
			t.Errorf("another ref's version is a candidate: %+v, %v", cs, err)
		}
		dv, err := tx.Version(fx.ctx, d.VersionID)
		if err != nil {
			return err
		}
		cs, err = tx.Candidates(fx.ctx, memgov.CandidateQuery{MemoryRef: ref, ContentHash: dv.ContentHash})
		if err != nil || len(cs) != 1 || cs[0].VersionID != d.VersionID || cs[0].State != memgov.Draft {
			t.Errorf("a pending (DRAFT) version is not a candidate: %+v, %v", cs, err)
		}
		return nil
	})
}

// A light candidate query returns what candidates are pruned by, for
// versions of every state, without their texts; CandidateRows reads in full
// the live ones among the ids it is given, in their order.
func testLightCandidates(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	content := json.RawMessage(`{"text":"Customer 42 prefers email.","subject":"customer 42","predicate":"prefers","object":"email"}`)
	feat, err := fx.e.IndexFeatures(content)
	if err != nil {
		t.Fatal(err)
	}
	a := fx.put(ref, "c42/channel", "", func(p *memgov.PutRequest) { p.Content = content; p.Layer = memgov.Episodic })
	sn := fx.put(ref, "session-note", "", func(p *memgov.PutRequest) { p.Content = content; p.Layer = memgov.Session })
	old := fx.put(ref, "old", "The office opens at nine.")
	cur := fx.put(ref, "old", "The office opens at ten.")
	d := fx.deferred("c7/lang", "Customer 7 wants invoices in German.")
	fx.view(func(tx memgov.ReadTx) error {
		av, err := tx.Version(fx.ctx, a.VersionID)
		if err != nil {
			return err
		}
		oldv, err := tx.Version(fx.ctx, old.VersionID)
		if err != nil {
			return err
		}
		full, err := tx.Candidates(fx.ctx, memgov.CandidateQuery{MemoryRef: ref, Subject: feat.Subject})
		if err != nil {
			return err
		}
		cs, err := tx.Candidates(fx.ctx, memgov.CandidateQuery{MemoryRef: ref, Subject: feat.Subject, Light: true})
		if err != nil {
			return err
		}
		if len(cs) != len(full) || len(cs) == 0 {
			t.Fatalf("light query by subject = %d candidates, full query %d; want the same, at least one", len(cs), len(full))
		}
		var c *memgov.Candidate
		for i := range cs {
			if cs[i].VersionID == a.VersionID {
				c = &cs[i]
			}
		}
		if c == nil {
			t.Fatalf("light query: the matching version is not a candidate: %+v", cs)
		}
		if c.ItemID != a.ItemID || c.Key != "c42/channel" || c.Layer != memgov.Episodic || c.ContentHash != av.ContentHash ||
			c.Subject != feat.Subject || string(c.Fingerprint) != string(feat.Fingerprint) || len(c.Embedding) == 0 {
			t.Errorf("light candidate lacks what candidates are pruned by: %+v", *c)
		}
		if c.Text != "" || c.State != "" {
			t.Errorf("light candidate carries its text or state: %q, %q", c.Text, c.State)
		}
		// A superseded version is a light candidate (its state is not read),
		// and CandidateRows drops it.
		ls, err := tx.Candidates(fx.ctx, memgov.CandidateQuery{MemoryRef: ref, ContentHash: oldv.ContentHash, Light: true})
		if err != nil || len(ls) != 1 || ls[0].VersionID != old.VersionID {
			t.Errorf("light query of a superseded version's hash = %+v, %v; want that version", ls, err)
		}
		ids := []string{d.VersionID, old.VersionID, sn.VersionID, "no-such-version", a.VersionID, cur.VersionID}
		rows, err := tx.CandidateRows(fx.ctx, ids, "")
		if err != nil {
			return err
		}
		var got []string
		for _, r := range rows {
			got = append(got, r.VersionID)
		}
		if want := []string{d.VersionID, a.VersionID, cur.VersionID}; !slices.Equal(got, want) {
			t.Errorf("CandidateRows = %v; want the live durable versions in the order asked, %v", got, want)
		}
		for _, r := range rows {
			if r.VersionID == a.VersionID && (r.Text != "Customer 42 prefers email." || r.State != memgov.Active || r.Predicate != feat.Predicate ||
				r.Object != feat.Object || r.CreatedBy != curator || r.Confidence != av.Confidence) {
				t.Errorf("CandidateRows: row = %+v", r)
			}
			if r.Embedding != nil {
				t.Errorf("CandidateRows: row %s carries its vector, which the light query read", r.VersionID)
			}
			if r.VersionID == d.VersionID && r.State != memgov.Draft {
				t.Errorf("CandidateRows: the pending version is %s", r.State)
			}
		}
		if rows, err := tx.CandidateRows(fx.ctx, ids, memgov.Session); err != nil || len(rows) != 1 || rows[0].VersionID != sn.VersionID {
			t.Errorf("CandidateRows of the SESSION layer = %+v, %v; want the session note alone", rows, err)
		}
		if rows, err := tx.CandidateRows(fx.ctx, nil, ""); err != nil || len(rows) != 0 {
			t.Errorf("CandidateRows of no ids = %+v, %v", rows, err)
		}
		return nil
	})
}

// A light query returns the versions its content hash, fingerprint or
// subject found, then those of the band index by ascending seq (the order
// they were indexed in), once each, the layer's only, whatever their state;
// past its limit, no more than the limit. Each carries the vector a full
// query reads.
func testLightBandCandidates(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	const same = "The quarterly report for the Lisbon office is due on Friday."
	feat, err := fx.e.IndexFeatures(text(same))
	if err != nil {
		t.Fatal(err)
	}
	other := fx.put(ref, "c42", "Customer 42 prefers email.")
	first := fx.put(ref, "report", same)
	twin := fx.put(ref, "report-copy", same) // the same vector: a tie
	near := fx.put(ref, "report-near", "The quarterly report for the Lisbon office is due on Friday!")
	fx.put(ref, "session-report", same, func(p *memgov.PutRequest) { p.Layer = memgov.Session })
	fx.put("acme/other", "report", same)
	last := fx.put(ref, "report", same+" Really.") // first is superseded
	fx.view(func(tx memgov.ReadTx) error {
		ov, err := tx.Version(fx.ctx, other.VersionID)
		if err != nil {
			return err
		}
		full, err := tx.Candidates(fx.ctx, memgov.CandidateQuery{MemoryRef: ref, Bands: feat.Bands})
		if err != nil {
			return err
		}
		vectors := map[string][]byte{}
		for _, c := range full {
			vectors[c.VersionID] = c.Embedding
		}
		q := memgov.CandidateQuery{MemoryRef: ref, ContentHash: ov.ContentHash, Bands: feat.Bands, Light: true}
		cs, err := tx.Candidates(fx.ctx, q)
		if err != nil {
			return err
		}
		var got []string
		for _, c := range cs {
			got = append(got, c.VersionID)
			if v, ok := vectors[c.VersionID]; ok && string(v) != string(c.Embedding) {
				t.Errorf("light candidate %s: its vector differs from a full query's", c.Key)
			}
			if len(c.Embedding) == 0 || len(c.Fingerprint) == 0 || c.Key == "" || c.ItemID == "" || c.ContentHash == "" {
				t.Errorf("light candidate lacks what candidates are pruned by: %+v", c)
			}
		}
		want := []string{other.VersionID, first.VersionID, twin.VersionID, near.VersionID}
		if slices.Contains(got, last.VersionID) {
			want = append(want, last.VersionID) // its bands may differ from the query's
		}
		if !slices.Equal(got, want) {
			t.Errorf("light candidates = %v; want %v (the hash's, then the bands' in the order indexed)", got, want)
		}
		q.Limit = 2
		if cs, err := tx.Candidates(fx.ctx, q); err != nil || len(cs) != 2 {
			t.Errorf("light candidates at limit 2 = %d, %v", len(cs), err)
		} else {
			for _, c := range cs {
				if !slices.Contains(want, c.VersionID) {
					t.Errorf("light candidate at limit 2: %s is none of the candidates", c.Key)
				}
			}
		}
		cs, err = tx.Candidates(fx.ctx, memgov.CandidateQuery{MemoryRef: ref, Bands: feat.Bands, Light: true, Layer: memgov.Session})
		if err != nil || len(cs) != 1 || cs[0].Key != "session-report" {
			t.Errorf("the SESSION layer's light band candidates = %+v, %v; want the session note alone", cs, err)
		}
		return nil
	})
}

// cite is a committed orchestrator write that cites source as evidence.
func (fx *fixture) cite(key, body, source string) memgov.WriteResult {
	fx.t.Helper()
	return fx.committed(key, body, func(m map[string]any) {
		m["observation_type"] = "tool_result_verified"
		m["evidence_refs"] = []any{
			map[string]any{"source_type": "MEMORY_ITEM", "source_item_id": source, "authority": 0.9},
			map[string]any{"source_type": "API_RESPONSE", "source_uri": "erp://plans", "authority": 0.9}}
	})
}

// CitedItems lists the items an item's live versions cite.
func testCitedItems(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	a := fx.committed("fact/a", "Plan A includes phone support.")
	c := fx.committed("fact/c", "Plan C includes on-site visits.")
	b := fx.cite("fact/b", "Plan B includes everything in plan A.", a.ItemID)
	fx.view(func(tx memgov.ReadTx) error {
		got, err := tx.CitedItems(fx.ctx, b.ItemID)
		if err != nil || !slices.Equal(got, []string{a.ItemID}) {
			t.Errorf("CitedItems(b) = %v, %v; want [%s]", got, err, a.ItemID)
		}
		if got, err := tx.CitedItems(fx.ctx, a.ItemID); err != nil || len(got) != 0 {
			t.Errorf("CitedItems(a) = %v, %v; want none", got, err)
		}
		return nil
	})
	// A new version of b that cites c instead: only live versions count.
	b2 := fx.cite("fact/b", "Plan B includes everything in plan C.", c.ItemID)
	if b2.ItemID != b.ItemID {
		t.Fatalf("the second write of fact/b made a new item")
	}
	fx.view(func(tx memgov.ReadTx) error {
		got, err := tx.CitedItems(fx.ctx, b.ItemID)
		if err != nil || !slices.Equal(got, []string{c.ItemID}) {
			t.Errorf("CitedItems(b) after its update = %v, %v; want [%s]", got, err, c.ItemID)
		}
		return nil
	})
}
