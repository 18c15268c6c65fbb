// Package memgov holds memgov's domain: the types of governed agent memory
// (items, versions, reviews, baselines, the log's records), the errors every
// part of memgov shares, and the store contract: one interface per concern
// that a store implements and store/storetest checks. It imports only leaf
// packages (the log format, the Merkle tree, canonical JSON, memory refs), so
// a store depends on the contract and never on the engine that uses it.
package memgov
