-- What the judge compares a version's text by before reading it in full
-- (its sketch: the words its similarity bound reads, and what every
-- contradiction rule needs two texts to share) is kept with the version's
-- features: a cache, not evidence, stamped with the judge version that
-- computed it. Rows written before have none; the judge reads those texts
-- in full when a write first meets them, and `memgov admin reindex` fills
-- them in when the judge changes.
ALTER TABLE version_features ADD COLUMN sketch BLOB;
