-- Door credentials (issue 15): bearer tokens bound to principals, stored as
-- hashes only, and the SSH public keys authorised for principals. Both tables
-- are derived from TOKEN_CREATE, TOKEN_REVOKE and SSH_KEY_ADD entries.

CREATE TABLE tokens (
    id         TEXT PRIMARY KEY,
    principal  TEXT NOT NULL,
    hash       TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    created_by TEXT NOT NULL,
    expires_at INTEGER,
    revoked_at INTEGER,
    revoked_by TEXT,
    lsn        INTEGER NOT NULL
) STRICT;
CREATE INDEX tokens_principal ON tokens(principal);

CREATE TABLE ssh_keys (
    fingerprint TEXT PRIMARY KEY,
    principal   TEXT NOT NULL,
    public_key  TEXT NOT NULL,
    added_at    INTEGER NOT NULL,
    added_by    TEXT NOT NULL,
    lsn         INTEGER NOT NULL
) STRICT;
CREATE INDEX ssh_keys_principal ON ssh_keys(principal);
