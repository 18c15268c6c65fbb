-- The mark of the last check of the log entry by entry (sqlstore.LogMark):
-- the size it checked, the sum of the keyed hashes of those entries' rows,
-- the Merkle frontier of their leaves, the seq of their last audit
-- checkpoint and how many of their payloads are erased, bound under the
-- log key by mac. `memgov audit verify` digests
-- those rows again (in SQLite, without reading them out) instead of
-- recomputing their leaves and chain, checks every later entry in full, and
-- checks the whole log entry by entry when the rows differ.
CREATE TABLE verify_log (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    size     INTEGER NOT NULL,
    sum      BLOB NOT NULL,
    frontier BLOB NOT NULL,
    seq      INTEGER NOT NULL,
    erased   INTEGER NOT NULL,
    mac      BLOB NOT NULL
) STRICT;
