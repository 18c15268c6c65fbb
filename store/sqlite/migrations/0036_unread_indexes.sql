-- Two indexes no statement reads: every append wrote a page of each.
-- Nothing looks the log up by actor (reads go by memoryRef, item, time or
-- position), and the features of versions are found by version, memoryRef
-- and fingerprint or subject; a reindex walks version_index by version id
-- and compares the judge version there.
DROP INDEX IF EXISTS log_by_actor;
DROP INDEX IF EXISTS version_features_judge;
