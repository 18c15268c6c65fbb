-- What an idempotency token covered (memoryRef, key, content, agent, layer):
-- a replay of the token with another write is refused, not answered.
ALTER TABLE idempotency ADD COLUMN scope TEXT NOT NULL DEFAULT '';

-- The provenance class of each version (user_stated, tool_verified,
-- agent_inferred, recalled), from its write's log entry.
ALTER TABLE versions ADD COLUMN source TEXT NOT NULL DEFAULT '';
