-- Workspaces (issue 7, 12.8.4): ids and names of the workspaces of 0007, the
-- keys a workspace removed from its base, and the reviews of merge requests.
-- Every table here is derived from WORKSPACE entries (rebuilt by replay).

ALTER TABLE workspaces ADD COLUMN id TEXT NOT NULL DEFAULT '';
ALTER TABLE workspaces ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE workspaces ADD COLUMN created_at INTEGER NOT NULL DEFAULT 0;
CREATE INDEX workspaces_id ON workspaces(id);

-- Base keys removed in a workspace (WORKSPACE "remove").
CREATE TABLE workspace_removed (
    ref TEXT NOT NULL,
    key TEXT NOT NULL,
    lsn INTEGER NOT NULL,
    PRIMARY KEY (ref, key)
) STRICT, WITHOUT ROWID;

-- One review per change of a submitted merge request (WORKSPACE "submit").
CREATE TABLE workspace_reviews (
    review_id TEXT PRIMARY KEY,
    ref       TEXT NOT NULL,
    key       TEXT NOT NULL,
    kind      TEXT NOT NULL
) STRICT;
CREATE INDEX workspace_reviews_ref ON workspace_reviews(ref);
