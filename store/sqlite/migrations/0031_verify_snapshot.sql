-- The served tables of the last matching replay are kept beside the database
-- (<file>-verified, a SQLite file), so that `memgov audit verify` after new
-- appends replays only the new entries on top of them. snapshot is the
-- SHA-256 of that file as the replay left it and snapshot_mac binds it to the
-- replay's size, chain and digest under the log key: a file that does not
-- hash to it is not used (the next verify replays the whole log).
ALTER TABLE verify_state ADD COLUMN snapshot BLOB;
ALTER TABLE verify_state ADD COLUMN snapshot_mac BLOB;
