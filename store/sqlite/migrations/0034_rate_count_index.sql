-- The rate limit counts a writer's accepted writes to a layer within its
-- window (agent, layer, time and status). write_outcomes_rate held the first
-- three, so the count read every outcome's row for its status; with the
-- status in the index the count reads the index alone. It serves every query
-- the old index served (its columns lead), which it replaces.
CREATE INDEX write_outcomes_rate_status ON write_outcomes(agent, layer, at, status);
DROP INDEX write_outcomes_rate;
