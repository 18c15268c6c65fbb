-- The subject index covers every row: a partial index (WHERE subject <> '')
-- makes SQLite re-plan the candidate query whenever a new subject is bound,
-- which cost a statement compilation on every governed write.
DROP INDEX version_index_subject;
CREATE INDEX version_index_subject ON version_index(memory_ref, subject);
