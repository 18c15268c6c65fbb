// Package merkle implements the RFC 9162 Merkle logs that agent-manifest v0.2
// uses for memgov's memory operation log (spec §3.2.6.2) and its audit
// chain (spec §3.2.7.1).
//
// Leaves are domain-separated hashes SHA-256(0x00 || tag || canonical JSON);
// interior nodes are SHA-256(0x01 || left || right). The package provides the
// Merkle Tree Hash with inclusion and consistency proofs as pure functions
// over a slice of leaf hashes, an in-memory [Tree] that caches interior nodes
// so that roots and proofs cost O(log n), a persistable [Frontier] that
// computes the new root after an append without the leaves, the
// hash-chained alternative of spec §3.2.7.1, and the checkpoint acceptance rules
// of both sections.
package merkle
