-- The burst check counts an agent's writes across layers; reputation counts an
-- agent's decided reviews.
CREATE INDEX write_outcomes_agent ON write_outcomes(agent, at);
CREATE INDEX reviews_agent ON reviews(agent, status);
