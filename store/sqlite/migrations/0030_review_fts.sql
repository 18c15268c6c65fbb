-- The review queue served by indexes. review_fts holds the text a curator
-- filters the queue by: the write's key, memoryRef, agent, reason, the
-- detail's reasons, findings and superseded key, and the write's text. Its
-- rowid is the review's created_lsn (stable, unlike the reviews rowid, which
-- VACUUM may renumber). The trigram tokenizer matches any part of a word, as
-- the filter bar always has. It is derived: the triggers below keep it in the
-- transaction that writes the review rows (and in a replay or a rebuild, which
-- write them again); an erasure, which rewrites the version and the review's
-- detail, rewrites it and merges the index so the erased terms leave the file.
CREATE VIRTUAL TABLE review_fts USING fts5(
	body,
	review_id UNINDEXED,
	tokenize = 'trigram'
);

CREATE INDEX reviews_lsn ON reviews(created_lsn);
-- The queue's other orders: by age (oldest first) and by SLA or deadline
-- (nearest first), each then in the queue's own order.
CREATE INDEX reviews_age ON reviews(created_at, tier DESC, risk DESC, id) WHERE status IN ('PENDING', 'ESCALATED');
CREATE INDEX reviews_sla ON reviews(due_at, tier DESC, risk DESC, created_at, id) WHERE status IN ('PENDING', 'ESCALATED');
-- The header's SYNC_BLOCK summary: the nearest deadline of one tier.
CREATE INDEX reviews_tier_due ON reviews(tier, due_at, risk DESC, created_at, id) WHERE status IN ('PENDING', 'ESCALATED');

CREATE VIEW review_fts_source AS
SELECT r.created_lsn AS lsn, r.id AS review_id,
	COALESCE(v.key, '') || char(10) || r.memory_ref || char(10) || r.agent || char(10) || r.reason || char(10) ||
	CASE WHEN json_valid(r.detail) THEN
		COALESCE(json_extract(r.detail, '$.supersedes'), '') || char(10) ||
		COALESCE((SELECT group_concat(value, char(10)) FROM json_each(r.detail, '$.reasons')), '') || char(10) ||
		COALESCE((SELECT group_concat(value, char(10)) FROM json_each(r.detail, '$.findings')), '')
	ELSE '' END || char(10) ||
	CASE WHEN v.content IS NOT NULL AND json_valid(CAST(v.content AS TEXT)) AND json_type(CAST(v.content AS TEXT), '$.text') = 'text'
		THEN json_extract(CAST(v.content AS TEXT), '$.text') ELSE '' END AS body
FROM reviews r LEFT JOIN versions v ON v.id = r.version_id;

CREATE TRIGGER review_fts_ins AFTER INSERT ON reviews BEGIN
	INSERT INTO review_fts (rowid, body, review_id) SELECT lsn, body, review_id FROM review_fts_source WHERE lsn = NEW.created_lsn AND review_id = NEW.id;
END;
CREATE TRIGGER review_fts_del AFTER DELETE ON reviews BEGIN
	DELETE FROM review_fts WHERE rowid = OLD.created_lsn;
END;
CREATE TRIGGER review_fts_upd AFTER UPDATE OF memory_ref, agent, reason, detail, version_id, created_lsn ON reviews BEGIN
	DELETE FROM review_fts WHERE rowid = OLD.created_lsn;
	INSERT INTO review_fts (rowid, body, review_id) SELECT lsn, body, review_id FROM review_fts_source WHERE lsn = NEW.created_lsn AND review_id = NEW.id;
END;
CREATE TRIGGER review_fts_version AFTER UPDATE OF key, content ON versions BEGIN
	DELETE FROM review_fts WHERE rowid IN (SELECT created_lsn FROM reviews WHERE version_id = NEW.id);
	INSERT INTO review_fts (rowid, body, review_id) SELECT s.lsn, s.body, s.review_id FROM review_fts_source s
		WHERE s.lsn IN (SELECT created_lsn FROM reviews WHERE version_id = NEW.id);
END;

INSERT INTO review_fts (rowid, body, review_id) SELECT lsn, body, review_id FROM review_fts_source;
