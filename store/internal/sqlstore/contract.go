package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// The host memory contract (issue 6): distillation and consolidation events,
// inferred commitments and proposals. Every table here is a function of the
// log (migration 0006).

func applyDistill(ctx context.Context, q querier, e *oplog.Entry) error {
	typ, data, err := distillEvent(e)
	if err != nil {
		return err
	}
	return event(ctx, q, e, typ, data)
}

func distillEvent(e *oplog.Entry) (string, map[string]any, error) {
	d, err := oplog.DecodeData[oplog.DistillData](e)
	if err != nil {
		return "", nil, err
	}
	return memgov.EventMemoryCompacted, map[string]any{"memoryRef": e.MemoryRef, "trigger": "host-managed",
		"archiveId": d.ArchiveHash, "distillation": map[string]any{"tokenBudget": d.TokenBudget, "tokensUsed": d.TokensUsed, "indexUpdated": d.IndexUpdated}}, nil
}

func applyConsolidate(ctx context.Context, q querier, e *oplog.Entry) error {
	typ, data, err := consolidateEvent(e)
	if err != nil {
		return err
	}
	return event(ctx, q, e, typ, data)
}

func consolidateEvent(e *oplog.Entry) (string, map[string]any, error) {
	d, err := oplog.DecodeData[oplog.ConsolidateData](e)
	if err != nil {
		return "", nil, err
	}
	return memgov.EventMemoryConsolidated, map[string]any{"inputCount": d.InputCount, "outputCount": d.OutputCount, "memoryRef": e.MemoryRef}, nil
}

// payloadEvents are the events whose data an entry's payload determines,
// by op: an erasure rewrites them from the skeleton it leaves, as a replay
// of the log writes them.
var payloadEvents = map[oplog.Op]func(*oplog.Entry) (string, map[string]any, error){
	oplog.Distill:     distillEvent,
	oplog.Consolidate: consolidateEvent,
}

// reemitErased rewrites the outbox rows of the entry at lsn, whose payload
// an erasure replaced by the skeleton sk, to what replaying that skeleton
// writes.
func reemitErased(ctx context.Context, q querier, lsn int64, op, ref string, sk []byte) error {
	if oplog.Op(op) == oplog.Commitment {
		// The commitment's predicate goes with its source's text.
		d, err := oplog.DecodeData[oplog.CommitmentData](&oplog.Entry{LSN: lsn, Payload: sk})
		if err != nil {
			return err
		}
		if _, err := q.ExecContext(ctx, `UPDATE commitments SET predicate = ? WHERE created_lsn = ?`, string(d.Predicate), lsn); err != nil {
			return err
		}
	}
	f, ok := payloadEvents[oplog.Op(op)]
	if !ok {
		return nil
	}
	typ, data, err := f(&oplog.Entry{LSN: lsn, Op: oplog.Op(op), MemoryRef: ref, Payload: sk})
	if err != nil {
		return err
	}
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `UPDATE events SET data = ? WHERE lsn = ? AND type = ?`, string(b), lsn, typ)
	return err
}

func applyCommitment(ctx context.Context, q querier, e *oplog.Entry) error {
	d, err := oplog.DecodeData[oplog.CommitmentData](e)
	if err != nil {
		return err
	}
	switch e.Op {
	case oplog.Commitment:
		var due sql.NullInt64
		if d.DueAt != "" {
			t, err := time.Parse(time.RFC3339Nano, d.DueAt)
			if err != nil {
				return fmt.Errorf("apply log entry %d: commitment due time: %w", e.LSN, err)
			}
			due = sql.NullInt64{Int64: ms(t), Valid: true}
		}
		_, err := q.ExecContext(ctx, `INSERT INTO commitments (id, memory_ref, tenant, source_item_id, source_version_id, kind, due_at, predicate,
			created_by, created_at, created_lsn) VALUES (?,?,?,?,?,?,?,?,?,?,?)`, d.ID, e.MemoryRef, d.Tenant, e.ItemID, d.SourceVersionID,
			d.Kind, due, string(d.Predicate), e.Actor, ms(e.Time), e.LSN)
		return wrapApply(e, err)
	case oplog.CommitmentFire:
		res, err := q.ExecContext(ctx, `UPDATE commitments SET armed = 0, fired_count = fired_count + 1, last_fired_at = ?, last_fired_lsn = ?
			WHERE id = ? AND memory_ref = ?`, ms(e.Time), e.LSN, d.ID, e.MemoryRef)
		if err := mustOne(res, err); err != nil {
			return wrapApply(e, err)
		}
		var count int
		if err := q.QueryRowContext(ctx, `SELECT fired_count FROM commitments WHERE id = ?`, d.ID).Scan(&count); err != nil {
			return wrapApply(e, err)
		}
		return event(ctx, q, e, memgov.EventCommitmentFired, map[string]any{"commitmentId": d.ID, "memoryRef": e.MemoryRef, "kind": d.Kind, "firing": count})
	default: // OpCommitmentArm
		res, err := q.ExecContext(ctx, `UPDATE commitments SET armed = 1 WHERE id = ? AND memory_ref = ?`, d.ID, e.MemoryRef)
		return wrapApply(e, mustOne(res, err))
	}
}

func applyProposal(ctx context.Context, q querier, e *oplog.Entry) error {
	d, err := oplog.DecodeData[oplog.ProposalData](e)
	if err != nil {
		return err
	}
	switch e.Op {
	case oplog.ProposalCreate:
		if d.Owner == nil {
			return fmt.Errorf("apply log entry %d: proposal without owner", e.LSN)
		}
		runs, _ := json.Marshal(nonNil(d.SourceRunIDs))
		if _, err := q.ExecContext(ctx, `INSERT INTO proposals (id, kind, state, title, tenant, workspace, principal, duplicate_of, source_run_ids,
			revision, artifact, artifact_hash, rationale, created_at, updated_at, created_lsn) VALUES (?,?,?,?,?,?,?,?,?,1,?,?,?,?,?,?)`,
			d.ID, d.Kind, memgov.ProposalDraft, d.Title, d.Owner.Tenant, d.Owner.Workspace, d.Owner.Principal, d.DuplicateOf, string(runs),
			[]byte(d.Artifact), d.ArtifactHash, d.Rationale, ms(e.Time), ms(e.Time), e.LSN); err != nil {
			return wrapApply(e, err)
		}
		if err := insertRevision(ctx, q, e, d, 1); err != nil {
			return err
		}
		return event(ctx, q, e, memgov.EventProposalCreated, map[string]any{"proposalId": d.ID, "kind": d.Kind, "tenant": d.Owner.Tenant,
			"duplicateOf": d.DuplicateOf, "artifactHash": d.ArtifactHash})
	case oplog.ProposalRevise:
		var rev int
		if err := q.QueryRowContext(ctx, `SELECT revision + 1 FROM proposals WHERE id = ? AND state IN ('draft', 'revised')`, d.ID).Scan(&rev); err != nil {
			return wrapApply(e, err)
		}
		if _, err := q.ExecContext(ctx, `UPDATE proposals SET state = 'revised', revision = ?, artifact = ?, artifact_hash = ?, rationale = ?, updated_at = ?
			WHERE id = ?`, rev, []byte(d.Artifact), d.ArtifactHash, d.Rationale, ms(e.Time), d.ID); err != nil {
			return wrapApply(e, err)
		}
		return insertRevision(ctx, q, e, d, rev)
	case oplog.ProposalApply:
		// The installed artifact is the one last persisted: its hash must be
		// the one the apply entry recorded.
		var kind, tenant string
		res, err := q.ExecContext(ctx, `UPDATE proposals SET state = 'applied', installed_hash = artifact_hash, decided_by = ?, gate = ?, updated_at = ?
			WHERE id = ? AND state IN ('draft', 'revised') AND artifact_hash = ?`, e.Actor, d.Gate, ms(e.Time), d.ID, d.ArtifactHash)
		if err := mustOne(res, err); err != nil {
			return wrapApply(e, err)
		}
		if err := q.QueryRowContext(ctx, `SELECT kind, tenant FROM proposals WHERE id = ?`, d.ID).Scan(&kind, &tenant); err != nil {
			return wrapApply(e, err)
		}
		return event(ctx, q, e, memgov.EventProposalActivated, map[string]any{"proposalId": d.ID, "kind": kind, "tenant": tenant,
			"artifactHash": d.ArtifactHash, "activation": d.Gate, "by": e.Actor})
	default:
		state, from := memgov.ProposalRejected, `('draft', 'revised')`
		if e.Op == oplog.ProposalArchive {
			state, from = memgov.ProposalArchived, `('draft', 'revised', 'rejected')`
		}
		res, err := q.ExecContext(ctx, `UPDATE proposals SET state = ?, decided_by = ?, note = ?, updated_at = ? WHERE id = ? AND state IN `+from,
			state, e.Actor, d.Note, ms(e.Time), d.ID)
		return wrapApply(e, mustOne(res, err))
	}
}

func insertRevision(ctx context.Context, q querier, e *oplog.Entry, d oplog.ProposalData, rev int) error {
	_, err := q.ExecContext(ctx, `INSERT INTO proposal_revisions (proposal_id, revision, artifact, artifact_hash, rationale, by, at, lsn)
		VALUES (?,?,?,?,?,?,?,?)`, d.ID, rev, []byte(d.Artifact), d.ArtifactHash, d.Rationale, e.Actor, ms(e.Time), e.LSN)
	return wrapApply(e, err)
}

// Events implements the engine's contract store.
func (r *ReadTx) Events(ctx context.Context, eq memgov.EventQuery) ([]memgov.Event, error) {
	var (
		sb   strings.Builder
		args []any
	)
	sb.WriteString(`SELECT id, lsn, at, type, memory_ref, data FROM events WHERE id > ?`)
	args = append(args, eq.AfterID)
	if eq.Type != "" {
		sb.WriteString(` AND type = ?`)
		args = append(args, eq.Type)
	}
	if eq.Tenant != "" && eq.Tenant != memgov.AllTenants {
		sb.WriteString(r.q.dialect().EventTenant)
		args = append(args, len(eq.Tenant)+1, eq.Tenant+"/", eq.Tenant)
	}
	limit := eq.Limit
	if limit <= 0 {
		limit = 1000
	}
	sb.WriteString(` ORDER BY id LIMIT ?`)
	args = append(args, limit)
	rows, err := r.q.QueryContext(ctx, sb.String(), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []memgov.Event{}
	for rows.Next() {
		var (
			ev   memgov.Event
			at   int64
			data string
		)
		if err := rows.Scan(&ev.ID, &ev.LSN, &at, &ev.Type, &ev.MemoryRef, &data); err != nil {
			return nil, err
		}
		ev.At, ev.Data = fromMS(at), json.RawMessage(data)
		out = append(out, ev)
	}
	return out, rows.Err()
}

// IndexedVersions implements the engine's contract store.
func (r *ReadTx) IndexedVersions(ctx context.Context, ref string, all bool, limit int) ([]memgov.IndexedVersion, error) {
	parts := strings.Split(versionCols, ",")
	for i, c := range parts {
		parts[i] = "v." + strings.TrimSpace(c)
	}
	cols := strings.Join(parts, ", ")
	states := `v.state = 'ACTIVE'`
	if all {
		states = `v.state IN ('ACTIVE', 'SUPERSEDED')`
	}
	rows, err := r.q.QueryContext(ctx, `SELECT `+cols+`, vf.embedding FROM versions v LEFT JOIN version_features vf ON vf.version_id = v.id
		WHERE v.memory_ref = ? AND `+states+` ORDER BY v.created_lsn DESC, v.id LIMIT ?`, ref, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []memgov.IndexedVersion{}
	for rows.Next() {
		var (
			iv  memgov.IndexedVersion
			emb []byte
		)
		sc := scanFunc(func(dest ...any) error { return rows.Scan(append(dest, &emb)...) })
		v, err := scanVersion(sc)
		if err != nil {
			return nil, err
		}
		iv.Version, iv.Embedding = v, emb
		out = append(out, iv)
	}
	return out, rows.Err()
}

type scanFunc func(...any) error

func (f scanFunc) Scan(dest ...any) error { return f(dest...) }

const commitmentCols = `id, memory_ref, tenant, source_item_id, source_version_id, kind, due_at, predicate, armed, fired_count,
	last_fired_at, last_fired_lsn, created_by, created_at`

func scanCommitment(sc Scanner) (memgov.Commitment, error) {
	var (
		c                    memgov.Commitment
		due, lastAt, lastLSN sql.NullInt64
		pred                 string
		created              int64
	)
	if err := sc.Scan(&c.ID, &c.MemoryRef, &c.Tenant, &c.SourceItemID, &c.SourceVersionID, &c.Kind, &due, &pred, &c.Armed, &c.FiredCount,
		&lastAt, &lastLSN, &c.CreatedBy, &created); err != nil {
		return c, err
	}
	if due.Valid {
		t := fromMS(due.Int64)
		c.DueAt = &t
	}
	if lastAt.Valid {
		t := fromMS(lastAt.Int64)
		c.LastFiredAt = &t
	}
	if pred != "" {
		c.Predicate = json.RawMessage(pred)
	}
	c.LastFiredLSN, c.CreatedAt = lastLSN.Int64, fromMS(created)
	return c, nil
}

// Commitments implements the engine's contract store.
func (r *ReadTx) Commitments(ctx context.Context, ref string) ([]memgov.Commitment, error) {
	return queryAll(ctx, r.q, scanCommitment, `SELECT `+commitmentCols+` FROM commitments WHERE memory_ref = ? ORDER BY created_lsn, id`, ref)
}

// Commitment implements the engine's contract store.
func (r *ReadTx) Commitment(ctx context.Context, id string) (memgov.Commitment, error) {
	c, err := scanCommitment(r.q.QueryRowContext(ctx, `SELECT `+commitmentCols+` FROM commitments WHERE id = ?`, id))
	return c, notFound("commitment", id, err)
}

const proposalCols = `id, kind, state, title, tenant, workspace, principal, duplicate_of, source_run_ids, revision, artifact, artifact_hash,
	rationale, installed_hash, decided_by, gate, note, created_at, updated_at`

func scanProposal(sc Scanner) (memgov.Proposal, error) {
	var (
		p          memgov.Proposal
		runs       string
		artifact   []byte
		cat, uat   int64
		ws, tenant string
	)
	if err := sc.Scan(&p.ID, &p.Kind, &p.State, &p.Title, &tenant, &ws, &p.Owner.Principal, &p.DuplicateOf, &runs, &p.Revision, &artifact,
		&p.ArtifactHash, &p.Rationale, &p.InstalledHash, &p.DecidedBy, &p.Gate, &p.Note, &cat, &uat); err != nil {
		return p, err
	}
	p.Owner.Tenant, p.Owner.Workspace = tenant, ws
	p.Artifact = json.RawMessage(artifact)
	if err := decodeColumn("proposals", "source_run_ids", p.ID, runs, &p.Provenance.SourceRunIDs); err != nil {
		return p, err
	}
	if p.Provenance.SourceRunIDs == nil {
		p.Provenance.SourceRunIDs = []string{}
	}
	p.CreatedAt, p.UpdatedAt = fromMS(cat), fromMS(uat)
	return p, nil
}

// Proposals implements the engine's contract store.
func (r *ReadTx) Proposals(ctx context.Context, pq memgov.ProposalQuery) ([]memgov.Proposal, error) {
	var (
		sb   strings.Builder
		args []any
	)
	sb.WriteString(`SELECT ` + proposalCols + ` FROM proposals WHERE 1 = 1`)
	if pq.Tenant != "" && pq.Tenant != memgov.AllTenants {
		sb.WriteString(` AND tenant = ?`)
		args = append(args, pq.Tenant)
	}
	for _, f := range []struct{ col, v string }{{"state", pq.State}, {"kind", pq.Kind}, {"artifact_hash", pq.ArtifactHash}} {
		if f.v != "" {
			sb.WriteString(` AND ` + f.col + ` = ?`)
			args = append(args, f.v)
		}
	}
	limit := pq.Limit
	if limit <= 0 {
		limit = 200
	}
	sb.WriteString(` ORDER BY created_lsn DESC LIMIT ?`)
	args = append(args, limit)
	return queryAll(ctx, r.q, scanProposal, sb.String(), args...)
}

// Proposal implements the engine's contract store.
func (r *ReadTx) Proposal(ctx context.Context, id string) (memgov.Proposal, error) {
	p, err := scanProposal(r.q.QueryRowContext(ctx, `SELECT `+proposalCols+` FROM proposals WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("%w: proposal", memgov.ErrNotFound)
	}
	return p, err
}

// ProposalRevisions implements the engine's contract store.
func (r *ReadTx) ProposalRevisions(ctx context.Context, id string) ([]memgov.ProposalRevision, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT revision, artifact, artifact_hash, rationale, by, at, lsn FROM proposal_revisions
		WHERE proposal_id = ? ORDER BY revision`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []memgov.ProposalRevision{}
	for rows.Next() {
		var (
			rv memgov.ProposalRevision
			a  []byte
			at int64
		)
		if err := rows.Scan(&rv.Revision, &a, &rv.ArtifactHash, &rv.Rationale, &rv.By, &at, &rv.LSN); err != nil {
			return nil, err
		}
		rv.Artifact, rv.At = json.RawMessage(a), fromMS(at)
		out = append(out, rv)
	}
	return out, rows.Err()
}
