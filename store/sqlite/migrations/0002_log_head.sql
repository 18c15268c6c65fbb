-- The signed head of the log: its size and last chain value, MACed with the log
-- key, so that removing entries from the end of the log is detected too.
CREATE TABLE log_head (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    size  INTEGER NOT NULL,
    chain BLOB NOT NULL,
    mac   BLOB NOT NULL
) STRICT;
