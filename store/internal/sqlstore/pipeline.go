package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

func applySuspension(ctx context.Context, q querier, e *oplog.Entry) error {
	res, err := q.ExecContext(ctx, `UPDATE principals SET suspended = ? WHERE id = ?`, e.Op == oplog.Suspend, e.ItemID)
	if err := mustOne(res, err); err != nil {
		return wrapApply(e, err)
	}
	typ := memgov.EventAgentSuspended
	if e.Op == oplog.Reinstate {
		typ = memgov.EventAgentReinstated
	}
	return event(ctx, q, e, typ, map[string]any{"agentId": e.ItemID})
}

// event appends a content-free event to the outbox.
func event(ctx context.Context, q querier, e *oplog.Entry, typ string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO events (id, lsn, at, type, memory_ref, data) VALUES ((SELECT COALESCE(MAX(id), 0) + 1 FROM events), ?,?,?,?,?)`, e.LSN, ms(e.Time), typ, e.MemoryRef, string(b))
	return wrapApply(e, err)
}

// memoryWritten is the data of a memory.written event: its members in the
// order of their names, as a map of them encodes.
type memoryWritten struct {
	AgentID   string `json:"agentId"`
	ItemID    string `json:"itemId"`
	MemoryRef string `json:"memoryRef"`
	Op        string `json:"op"`
	VersionID string `json:"versionId"`
}

// versionEnded announces a RETRACT, EXPIRE or SUPERSEDE in the outbox.
func versionEnded(ctx context.Context, q querier, e *oplog.Entry) error {
	typ := memgov.EventMemoryRetracted
	switch e.Op {
	case oplog.Expire:
		typ = memgov.EventMemoryExpired
	case oplog.Supersede:
		typ = memgov.EventMemorySuperseded
	}
	return event(ctx, q, e, typ, map[string]any{"memoryRef": e.MemoryRef, "itemId": e.ItemID, "versionId": e.VersionID, "actor": e.Actor})
}

// versionData decodes the pipeline data of a version entry's payload; a
// payload without data (or an erased one's skeleton) has none. Data that does
// not decode is an error naming the entry.
func versionData(e *oplog.Entry, p oplog.Payload) (oplog.VersionData, error) {
	var m oplog.VersionData
	if len(p.Data) > 0 {
		if err := json.Unmarshal(p.Data, &m); err != nil {
			return m, fmt.Errorf("apply log entry %d (%s): version data: %w", e.LSN, e.Op, err)
		}
	}
	return m, nil
}

// indexVersion keeps the write path's indexes, the review queue, the
// idempotency registry and the event outbox in step with a new version
// (INSERT, UPDATE, MERGE, STAGE). What a judge derives from the version's
// text (version_features) is not applied from the log: the
// engine stores it with PutFeatures (features.go).
func indexVersion(ctx context.Context, q querier, e *oplog.Entry) error {
	p, meta, err := decodeVersion(e)
	if err != nil {
		return err
	}
	return indexVersionOf(ctx, q, e, p, meta)
}

// indexVersionOf is indexVersion of a decoded entry.
func indexVersionOf(ctx context.Context, q querier, e *oplog.Entry, p oplog.Payload, meta oplog.VersionData) error {
	if len(p.Content) == 0 {
		return nil
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO version_index (version_id, item_id, memory_ref, layer, key, content_hash)
		VALUES (?,?,?,?,?,?)`, e.VersionID, e.ItemID, e.MemoryRef, string(p.Layer), p.Key, p.ContentHash); err != nil {
		return wrapApply(e, err)
	}
	review := meta.Review
	if review == nil {
		review = &oplog.StagedReview{}
	}
	for _, ev := range meta.Evidence {
		if ev.SourceType == "MEMORY_ITEM" && ev.SourceItemID != "" {
			if _, err := q.ExecContext(ctx, `INSERT INTO version_evidence (version_id, item_id, source_item_id) VALUES (?,?,?) ON CONFLICT DO NOTHING`,
				e.VersionID, e.ItemID, ev.SourceItemID); err != nil {
				return wrapApply(e, err)
			}
		}
	}
	status := memgov.StatusCommitted
	if e.Op == oplog.Stage {
		status = memgov.StatusDeferred
		due, err := time.Parse(time.RFC3339Nano, review.DueAt)
		if err != nil {
			return fmt.Errorf("apply log entry %d: review due time: %w", e.LSN, err)
		}
		tenant, _, _ := strings.Cut(e.MemoryRef, "/")
		detail := review.Detail
		if len(detail) == 0 {
			detail = json.RawMessage("{}")
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO reviews (id, version_id, item_id, memory_ref, tenant, layer, agent, tier, risk, reason, detail, status, created_at, due_at, created_lsn)
			VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`, review.ID, e.VersionID, e.ItemID, e.MemoryRef, tenant, string(p.Layer), e.Actor, review.Tier, review.Risk, review.Reason,
			string(detail), memgov.ReviewPending, ms(e.Time), ms(due), e.LSN); err != nil {
			return wrapApply(e, err)
		}
		if err := event(ctx, q, e, memgov.EventReviewCreated, map[string]any{"reviewId": review.ID, "memoryRef": e.MemoryRef, "tier": review.Tier, "agentId": e.Actor}); err != nil {
			return err
		}
	} else {
		if e.Op == oplog.Merge {
			status = memgov.StatusMerged
		}
		if err := event(ctx, q, e, memgov.EventMemoryWritten, memoryWritten{AgentID: e.Actor, ItemID: e.ItemID, MemoryRef: e.MemoryRef, Op: string(e.Op), VersionID: e.VersionID}); err != nil {
			return err
		}
	}
	if token := meta.IdempotencyToken; token != "" {
		if _, err := q.ExecContext(ctx, `INSERT INTO idempotency (token, status, item_id, version_id, review_id, key, created_at, scope) VALUES (?,?,?,?,?,?,?,?)
			ON CONFLICT (token) DO UPDATE SET status = excluded.status, item_id = excluded.item_id, version_id = excluded.version_id,
			review_id = excluded.review_id, key = excluded.key, created_at = excluded.created_at, scope = excluded.scope`,
			token, status, e.ItemID, e.VersionID, review.ID, p.Key, ms(e.Time), meta.IdempotencyScope); err != nil {
			return wrapApply(e, err)
		}
	}
	return nil
}

// recordDecision closes the review an APPROVE or REJECT entry decides.
func recordDecision(ctx context.Context, q querier, e *oplog.Entry) error {
	p, err := e.DecodePayload()
	if err != nil {
		return err
	}
	data, err := versionData(e, p)
	if err != nil {
		return err
	}
	d := data.Decision
	if d == nil || d.ReviewID == "" {
		return nil
	}
	reviewID, code, note := d.ReviewID, d.Code, d.Note
	status, typ := memgov.ReviewApproved, memgov.EventReviewApproved
	if e.Op == oplog.Reject {
		status, typ = memgov.ReviewRejected, memgov.EventReviewRejected
	}
	res, err := q.ExecContext(ctx, `UPDATE reviews SET status = ?, decided_by = ?, decided_at = ?, decision_code = ?, note = ?
		WHERE id = ? AND status IN ('PENDING', 'ESCALATED')`, status, e.Actor, ms(e.Time), code, note, reviewID)
	if err := mustOne(res, err); err != nil {
		return wrapApply(e, err)
	}
	if e.Op == oplog.Approve {
		if _, err := q.ExecContext(ctx, `UPDATE idempotency SET status = 'COMMITTED' WHERE version_id = ?`, e.VersionID); err != nil {
			return wrapApply(e, err)
		}
		if err := event(ctx, q, e, memgov.EventMemoryWritten, map[string]any{"memoryRef": e.MemoryRef, "itemId": e.ItemID, "versionId": e.VersionID, "op": string(e.Op)}); err != nil {
			return err
		}
	} else if _, err := q.ExecContext(ctx, `DELETE FROM idempotency WHERE version_id = ?`, e.VersionID); err != nil {
		return wrapApply(e, err)
	}
	return event(ctx, q, e, typ, map[string]any{"reviewId": reviewID, "memoryRef": e.MemoryRef, "by": e.Actor, "code": code})
}

// RecordOutcome stores a write outcome for the metrics.
func (t *Tx) RecordOutcome(ctx context.Context, o memgov.Outcome) error {
	stages := map[string]int64{}
	for k, d := range o.Stages {
		stages[k] = d.Microseconds()
	}
	b, _ := json.Marshal(stages)
	_, err := t.q.ExecContext(ctx, `INSERT INTO write_outcomes (at, agent, layer, memory_ref, session_id, status, reason, gate, latency_us, stages)
		VALUES (?,?,?,?,?,?,?,?,?,?)`, ms(o.At), o.Agent, string(o.Layer), o.MemoryRef, o.SessionID, o.Status, o.Reason, o.Gate, o.Latency.Microseconds(), string(b))
	return err
}

func (r *ReadTx) Idempotent(ctx context.Context, token string, since time.Time) (memgov.IdempotencyRecord, bool, error) {
	var (
		rec memgov.IdempotencyRecord
		at  int64
	)
	err := r.q.QueryRowContext(ctx, `SELECT status, item_id, version_id, review_id, key, created_at, scope FROM idempotency WHERE token = ? AND created_at >= ?`,
		token, ms(since)).Scan(&rec.Status, &rec.ItemID, &rec.VersionID, &rec.ReviewID, &rec.Key, &at, &rec.Scope)
	if errors.Is(err, sql.ErrNoRows) {
		return rec, false, nil
	}
	rec.CreatedAt = fromMS(at)
	return rec, err == nil, err
}

func (r *ReadTx) CountOutcomes(ctx context.Context, agent string, layer memgov.Layer, since time.Time, statuses ...string) (int, error) {
	q := `SELECT COUNT(*) FROM write_outcomes WHERE agent = ? AND at >= ?`
	args := []any{agent, ms(since)}
	if layer != "" {
		q += ` AND layer = ?`
		args = append(args, string(layer))
	}
	if len(statuses) > 0 {
		q += ` AND status IN (` + placeholders(len(statuses)) + `)`
		for _, s := range statuses {
			args = append(args, s)
		}
	}
	var n int
	err := r.q.QueryRowContext(ctx, q, args...).Scan(&n)
	return n, err
}

func (r *ReadTx) CountSessionCommits(ctx context.Context, agent, sessionID string) (int, error) {
	var n int
	err := r.q.QueryRowContext(ctx, `SELECT COUNT(*) FROM write_outcomes WHERE agent = ? AND session_id = ? AND status IN ('COMMITTED', 'MERGED', 'DEFERRED')`,
		agent, sessionID).Scan(&n)
	return n, err
}

// bandBucketLimit caps the candidates one SimHash band contributes.
const bandBucketLimit = 24

func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }

// idSet collects version ids in first-seen order, without repeats.
type idSet struct {
	ids  []string
	seen map[string]bool
}

func (s *idSet) add(id string) {
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	if !s.seen[id] {
		s.seen[id] = true
		s.ids = append(s.ids, id)
	}
}

// collect adds the ids a one-column query returns.
func (s *idSet) collect(ctx context.Context, q querier, query string, args ...any) error {
	rows, err := queryDrained(ctx, q, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		s.add(id)
	}
	return rows.Err()
}

func (r *ReadTx) Candidates(ctx context.Context, cq memgov.CandidateQuery) ([]memgov.Candidate, error) {
	// Each source is a small statement of its own, and the versions they name
	// are read in one statement whose id list is bound as a JSON array: every
	// statement text is fixed, so a write transaction compiles each once
	// (one statement built of unions and placeholders was re-planned by SQLite
	// on every call).
	var set idSet
	collect := func(query string, args ...any) error { return set.collect(ctx, r.q, query, args...) }
	if cq.ContentHash != "" {
		if err := collect(`SELECT version_id FROM version_index WHERE memory_ref = ? AND content_hash = ?`, cq.MemoryRef, cq.ContentHash); err != nil {
			return nil, err
		}
	}
	if len(cq.Fingerprint) > 0 {
		if err := collect(`SELECT version_id FROM version_features WHERE memory_ref = ? AND fingerprint = ?`, cq.MemoryRef, cq.Fingerprint); err != nil {
			return nil, err
		}
	}
	if cq.Subject != "" {
		if err := collect(`SELECT version_id FROM version_features WHERE memory_ref = ? AND subject = ?`, cq.MemoryRef, cq.Subject); err != nil {
			return nil, err
		}
	}
	// Each SimHash band contributes its newest members only: a bucket shared
	// by thousands of versions (a corpus of near-identical templates) would
	// otherwise make every write scan it. Recall is measured by `memgov bench
	// write` against brute force.
	if len(cq.Bands) > 0 {
		cache := r.bands
		if cache == nil {
			cache = NewBandCache() // a transaction outside the store's own: read afresh
		}
		seqs, err := cache.lookup(ctx, r.q, cq.MemoryRef, cq.Bands, cq.MaxHamming, bandBucketLimit)
		if err != nil {
			return nil, err
		}
		if len(seqs) > 0 {
			list, err := json.Marshal(seqs)
			if err != nil {
				return nil, err
			}
			if cq.Light {
				return r.lightWithBands(ctx, cq, set, string(list))
			}
			if err := collect(r.q.dialect().FeaturesBySeq, string(list), cq.MemoryRef); err != nil {
				return nil, err
			}
		}
	}
	limit := candidatesLimit(cq)
	if cq.Light {
		return r.lightCandidates(ctx, set.ids, limit, cq.Layer)
	}
	return r.candidatesOfLayer(ctx, set.ids, limit, cq.Layer)
}

// candidatesLimit is the most candidates a query returns.
func candidatesLimit(cq memgov.CandidateQuery) int {
	if cq.Limit <= 0 {
		return 400
	}
	return cq.Limit
}

// lightWithBands is a light query's answer given the versions found by
// content hash, fingerprint or subject (set) and the band index's seqs
// (list, a JSON array): what lightCandidates returns for set's ids followed
// by the band candidates' (by ascending seq, as FeaturesBySeq names them).
// The band candidates are read by seq, their version_features and
// version_index rows in one statement, where naming them by version_id
// first and then reading them by version_id looked each row up twice more.
// When more versions match than the query's limit, which of them
// lightCandidates keeps is its statement's to say: they are read its way.
func (r *ReadTx) lightWithBands(ctx context.Context, cq memgov.CandidateQuery, set idSet, list string) ([]memgov.Candidate, error) {
	rows, err := queryDrained(ctx, r.q, r.q.dialect().LightBySeq, list, cq.MemoryRef, string(cq.Layer), string(cq.Layer))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	type banded struct {
		seq int64
		c   memgov.Candidate
	}
	var bs []banded
	for rows.Next() {
		var (
			b     banded
			layer string
		)
		if err := rows.Scan(&b.seq, &b.c.VersionID, &b.c.ItemID, &b.c.Key, &layer, &b.c.ContentHash, &b.c.Fingerprint, &b.c.Subject, &b.c.Embedding); err != nil {
			return nil, err
		}
		b.c.Layer = memgov.Layer(layer)
		bs = append(bs, b)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	own := len(set.ids)
	out, err := r.lightCandidates(ctx, set.ids, own, cq.Layer)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(bs, func(a, b banded) int { return cmp.Compare(a.seq, b.seq) })
	for _, b := range bs {
		if !set.seen[b.c.VersionID] {
			set.add(b.c.VersionID)
			out = append(out, b.c)
		}
	}
	if len(out) > candidatesLimit(cq) {
		var all idSet
		for _, id := range set.ids[:own] {
			all.add(id)
		}
		if err := all.collect(ctx, r.q, r.q.dialect().FeaturesBySeq, list, cq.MemoryRef); err != nil {
			return nil, err
		}
		return r.lightCandidates(ctx, all.ids, candidatesLimit(cq), cq.Layer)
	}
	byIDOrder(out, set.ids)
	return out, nil
}

func (r *ReadTx) CandidateRows(ctx context.Context, ids []string, layer memgov.Layer) ([]memgov.Candidate, error) {
	// The caller scored these by the light query's vectors: they are not
	// read again.
	cs, err := r.candidateRows(ctx, ids, len(ids), layer, false)
	if err != nil {
		return nil, err
	}
	byIDOrder(cs, ids)
	return cs, nil
}

// byIDOrder sorts cs by the position of their version ids in ids.
func byIDOrder(cs []memgov.Candidate, ids []string) {
	rank := make(map[string]int, len(ids))
	for i, id := range ids {
		if _, ok := rank[id]; !ok {
			rank[id] = i
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return rank[cs[i].VersionID] < rank[cs[j].VersionID] })
}

// lightCandidates reads what candidates are pruned by, of the indexed versions
// among ids in layer (or the durable layers), in any state, at most limit, in
// the order of ids. It reads neither the versions' rows nor their content:
// version_index and version_features hold all it returns.
func (r *ReadTx) lightCandidates(ctx context.Context, ids []string, limit int, layer memgov.Layer) ([]memgov.Candidate, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	idList, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	rows, err := queryDrained(ctx, r.q, `SELECT vi.version_id, vi.item_id, vi.key, vi.layer, vi.content_hash, vf.fingerprint, COALESCE(vf.subject, ''), vf.embedding
		FROM version_index vi LEFT JOIN version_features vf ON vf.version_id = vi.version_id
		WHERE vi.version_id IN (SELECT value FROM `+r.q.dialect().JSONValues+`) AND (vi.layer = ? OR CAST(? AS TEXT) = '' AND vi.layer IN ('EPISODIC', 'SEMANTIC', 'PROCEDURAL'))
		LIMIT ?`, string(idList), string(layer), string(layer), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []memgov.Candidate
	for rows.Next() {
		var (
			c     memgov.Candidate
			layer string
		)
		if err := rows.Scan(&c.VersionID, &c.ItemID, &c.Key, &layer, &c.ContentHash, &c.Fingerprint, &c.Subject, &c.Embedding); err != nil {
			return nil, err
		}
		c.Layer = memgov.Layer(layer)
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	byIDOrder(out, ids)
	return out, nil
}

// candidatesByID reads the indexed ACTIVE or DRAFT durable versions among ids,
// at most limit, in no particular order.
func (r *ReadTx) candidatesByID(ctx context.Context, ids []string, limit int) ([]memgov.Candidate, error) {
	return r.candidatesOfLayer(ctx, ids, limit, "")
}

// candidatesOfLayer is candidatesByID for the versions of layer, or when
// layer is "" the durable ones.
func (r *ReadTx) candidatesOfLayer(ctx context.Context, ids []string, limit int, layer memgov.Layer) ([]memgov.Candidate, error) {
	return r.candidateRows(ctx, ids, limit, layer, true)
}

// candidateColumns are the columns a candidate is read from (scanCandidate),
// of version_index vi, versions v and version_features vf; the versions'
// vectors (Embedding) only when vectors is set.
func candidateColumns(vectors bool) string {
	vector := `vf.embedding`
	if !vectors {
		vector = `NULL`
	}
	return `vi.version_id, vi.item_id, vi.key, vi.layer, v.state, vi.content_hash, vf.fingerprint, COALESCE(vf.subject, ''),
		COALESCE(vf.predicate, ''), COALESCE(vf.object, ''), ` + vector + `, v.content, v.confidence, v.created_by, vf.sketch`
}

// versionCandidateColumns are candidateColumns read from the versions row
// alone (alias v), which holds the same id, item, key, layer and content
// hash as the version's version_index row: a statement that needs no
// other column of version_index reads one row less a candidate.
const versionCandidateColumns = `v.id, v.item_id, v.key, v.layer, v.state, v.content_hash, vf.fingerprint, COALESCE(vf.subject, ''),
		COALESCE(vf.predicate, ''), COALESCE(vf.object, ''), vf.embedding, v.content, v.confidence, v.created_by, vf.sketch`

// scanCandidate reads a row of candidateColumns, after the columns into
// which lead are scanned.
func scanCandidate(rows *sql.Rows, lead ...any) (memgov.Candidate, error) {
	var (
		c            memgov.Candidate
		layer, state string
		content      []byte
	)
	if err := rows.Scan(append(lead, &c.VersionID, &c.ItemID, &c.Key, &layer, &state, &c.ContentHash, &c.Fingerprint, &c.Subject, &c.Predicate, &c.Object,
		&c.Embedding, &content, &c.Confidence, &c.CreatedBy, &c.Sketch)...); err != nil {
		return c, err
	}
	c.State, c.Layer = memgov.State(state), memgov.Layer(layer)
	var err error
	if c.Text, err = contentText(content); err != nil {
		return c, fmt.Errorf("corrupt stored data: versions.content of row %s: %w", c.VersionID, err)
	}
	return c, nil
}

// candidateRows is candidatesOfLayer, which reads the versions' vectors
// (Embedding) only when vectors is set.
func (r *ReadTx) candidateRows(ctx context.Context, ids []string, limit int, layer memgov.Layer, vectors bool) ([]memgov.Candidate, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	idList, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	rows, err := queryDrained(ctx, r.q, `SELECT `+candidateColumns(vectors)+`
		FROM version_index vi JOIN versions v ON v.id = vi.version_id LEFT JOIN version_features vf ON vf.version_id = vi.version_id
		WHERE vi.version_id IN (SELECT value FROM `+r.q.dialect().JSONValues+`) AND (vi.layer = ? OR CAST(? AS TEXT) = '' AND vi.layer IN ('EPISODIC', 'SEMANTIC', 'PROCEDURAL'))
		AND v.state IN ('ACTIVE', 'DRAFT')
		LIMIT ?`, string(idList), string(layer), string(layer), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []memgov.Candidate
	for rows.Next() {
		c, err := scanCandidate(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func (r *ReadTx) CitedItems(ctx context.Context, itemID string) ([]string, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT DISTINCT ve.source_item_id FROM version_evidence ve JOIN versions v ON v.id = ve.version_id
		WHERE ve.item_id = ? AND v.state IN ('ACTIVE', 'DRAFT')`, itemID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

const reviewCols = `id, version_id, item_id, memory_ref, tenant, layer, agent, tier, risk, reason, detail, status, created_at, due_at,
	decided_by, decided_at, decision_code, note, claim_holder, claim_token, claim_expires`

func scanReview(sc Scanner) (memgov.Review, error) {
	var (
		rv                       memgov.Review
		layer, detail            string
		created, due, claimUntil int64
		decided                  sql.NullInt64
	)
	if err := sc.Scan(&rv.ID, &rv.VersionID, &rv.ItemID, &rv.MemoryRef, &rv.Tenant, &layer, &rv.Agent, &rv.Tier, &rv.Risk, &rv.Reason,
		&detail, &rv.Status, &created, &due, &rv.DecidedBy, &decided, &rv.DecisionCode, &rv.Note, &rv.ClaimHolder, &rv.ClaimToken, &claimUntil); err != nil {
		return rv, err
	}
	rv.Layer, rv.Detail, rv.CreatedAt, rv.DueAt = memgov.Layer(layer), json.RawMessage(detail), fromMS(created), fromMS(due)
	if decided.Valid {
		t := fromMS(decided.Int64)
		rv.DecidedAt = &t
	}
	if claimUntil > 0 {
		rv.ClaimExpires = fromMS(claimUntil)
	}
	return rv, nil
}

func (r *ReadTx) Review(ctx context.Context, id string) (memgov.Review, error) {
	rv, err := scanReview(r.q.QueryRowContext(ctx, `SELECT `+reviewCols+` FROM reviews WHERE id = ?`, id))
	return rv, notFound("review", id, err)
}

func (r *ReadTx) Reviews(ctx context.Context, q memgov.ReviewQuery) ([]memgov.Review, int, error) {
	var (
		where []string
		args  []any
	)
	statuses := q.Statuses
	if len(statuses) == 0 || (len(statuses) == 2 && statuses[0] == memgov.ReviewPending && statuses[1] == memgov.ReviewEscalated) {
		// Literal, so that the planner can use the partial queue index.
		where = append(where, `status IN ('PENDING', 'ESCALATED')`)
	} else {
		where = append(where, `status IN (`+placeholders(len(statuses))+`)`)
		for _, s := range statuses {
			args = append(args, s)
		}
	}
	add := func(cond string, v any) {
		where = append(where, cond)
		args = append(args, v)
	}
	if q.Layer != "" {
		add(`layer = ?`, string(q.Layer))
	}
	if q.Tier != "" {
		add(`tier = ?`, q.Tier)
	}
	if q.Agent != "" {
		add(`agent = ?`, q.Agent)
	}
	if q.Tenant != "" && q.Tenant != memgov.AllTenants {
		add(`tenant = ?`, q.Tenant)
	}
	if q.Reason != "" {
		add(`reason = ?`, q.Reason)
	}
	if q.MinAge > 0 {
		add(`created_at <= ?`, ms(q.Now.Add(-q.MinAge)))
	}
	if q.Breached {
		add(`due_at <= ?`, ms(q.Now))
	}
	if cond, cargs := r.q.dialect().ReviewTextMatch(q.Text); cond != "" {
		where = append(where, cond)
		args = append(args, cargs...)
	}
	order, err := reviewOrder(q.Order)
	if err != nil {
		return nil, 0, err
	}
	w := strings.Join(where, " AND ")
	var total int
	if err := r.q.QueryRowContext(ctx, `SELECT COUNT(*) FROM reviews WHERE `+w, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	query := `SELECT ` + reviewCols + ` FROM reviews WHERE ` + w + ` ORDER BY ` + order
	if q.Limit > 0 {
		query += fmt.Sprintf(` LIMIT %d OFFSET %d`, q.Limit, max(0, q.Offset))
	}
	rows, err := r.q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []memgov.Review{}
	for rows.Next() {
		rv, err := scanReview(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, rv)
	}
	return out, total, rows.Err()
}

func (r *ReadTx) AgentRecord(ctx context.Context, agent string) (int, int, error) {
	var a, rj sql.NullInt64
	err := r.q.QueryRowContext(ctx, `SELECT SUM(CAST(status = 'APPROVED' AS INT)), SUM(CAST(status = 'REJECTED' AND decision_code <> 'APPROVAL_TIMEOUT' AS INT)) FROM reviews WHERE agent = ?`, agent).Scan(&a, &rj)
	return int(a.Int64), int(rj.Int64), err
}
