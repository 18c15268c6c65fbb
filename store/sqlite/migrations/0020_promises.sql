-- What an idempotency token covered (memoryRef, key, content, agent, layer):
-- a replay of the token with another write is refused, not answered.
ALTER TABLE idempotency ADD COLUMN scope TEXT NOT NULL DEFAULT '';
