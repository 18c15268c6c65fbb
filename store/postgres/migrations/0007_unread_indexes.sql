-- Two indexes no statement reads (see the SQLite migration 0036): every
-- append wrote to each.
DROP INDEX IF EXISTS log_by_actor;
DROP INDEX IF EXISTS version_features_judge;
