-- Webhook notifications whose receiver refused or failed every attempt
-- (memgov serve --webhook): kept for a person (memgov webhook dead-letters),
-- not derived from the log. body is the notification as it was to be sent:
-- identifiers only, never memory content.
CREATE TABLE dead_letters (
    id          INTEGER PRIMARY KEY,
    event_id    INTEGER NOT NULL,
    event_type  TEXT NOT NULL,
    url         TEXT NOT NULL,
    attempts    INTEGER NOT NULL,
    error       TEXT NOT NULL,
    body        BLOB NOT NULL,
    at          INTEGER NOT NULL
) STRICT;
