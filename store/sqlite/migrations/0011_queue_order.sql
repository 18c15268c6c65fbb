-- The queue's order (SYNC_BLOCK first, then risk, then age) served by an index:
-- 'SYNC_BLOCK' sorts after 'ASYNC_REVIEW', so tier DESC puts it first.
DROP INDEX reviews_open;
CREATE INDEX reviews_queue ON reviews(tier DESC, risk DESC, created_at, id) WHERE status IN ('PENDING', 'ESCALATED');
