-- What the judge compares a version's text by before reading it in full
-- (its sketch) is kept with the version's features: a cache, not evidence,
-- stamped with the judge version that computed it (see the SQLite
-- migration 0034).
ALTER TABLE version_features ADD COLUMN sketch BYTEA;
