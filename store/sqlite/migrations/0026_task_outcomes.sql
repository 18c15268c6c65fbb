-- Task outcomes reported with `memgov feedback` (spec §12.12.5): whether the
-- task a retrieval served succeeded, and whether a failure's root cause was
-- memory; tasks run with memory withheld (the ablation arm of MCI) have no
-- retrieval. Telemetry, not log entries: no table derives from them.
CREATE TABLE task_outcomes (
    id            TEXT PRIMARY KEY,          -- the retrieval id, or a new id for an ablated task
    at            INTEGER NOT NULL,
    retrieval_id  TEXT NOT NULL DEFAULT '',  -- '' : memory was withheld (ablated)
    principal     TEXT NOT NULL,
    success       INTEGER NOT NULL,
    memory_caused INTEGER NOT NULL DEFAULT 0,
    note          TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX task_outcomes_at ON task_outcomes(at);
