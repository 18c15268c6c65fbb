// Package engine is memgov's governance core: the use cases (writes,
// versioning, rollback, pinning, audit) that every door (CLI, TUI, servers)
// calls. The domain types, errors and store contract are the root package
// memgov's; who may do what is authz's.
//
// engine knows nothing of SQL or terminals; store/sqlite implements the store.
package engine
