package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/merkle"
)

// The conformance toolkit: commands that need no database, so a tester can
// feed memgov the published vectors of RFC 8785 and spec §3.2.6.2 and
// spec §3.2.7.1 and compare its answers byte for byte.

// readInput reads FILE, or standard input when there is no argument or it is "-".
func (a *app) readInput(args []string) ([]byte, error) {
	if len(args) == 0 || args[0] == "-" {
		return io.ReadAll(a.stdin)
	}
	b, err := os.ReadFile(args[0])
	if err != nil {
		return nil, usagef("%v", err)
	}
	return b, nil
}

func (a *app) canonCommand() *cobra.Command {
	var alg string
	cmd := &cobra.Command{
		Use:   "canon [FILE]",
		Short: "Print the RFC 8785 canonical form of a JSON document, or its digest",
		Long: `canon reads one JSON document from FILE (or standard input) and prints its RFC
8785 (JCS) canonical bytes exactly, with no newline added (spec §2.8). The input
must be strict JSON: valid UTF-8, no duplicate keys, finite numbers. With --hash
it prints the digest of those bytes instead, as <alg>:<64 hex> and a newline:
sha256 or shake256 (SHAKE-256 with 32 bytes of output), the form memgov writes
snapshot, content and payload hashes in.`,
		Example: "  memgov canon input.json > output.json\n  echo '{\"b\":2,\"a\":1}' | memgov canon --hash sha256",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, err := a.readInput(args)
			if err != nil {
				return err
			}
			out, err := canon.Canonicalize(in)
			if err != nil {
				return usagef("not canonicalisable JSON: %v", err)
			}
			if alg == "" {
				_, err = a.exactOut().Write(out) // byte-exact: the RFC 8785 bytes
				return err
			}
			d, err := canon.NewDigest(canon.Algorithm(alg))
			if err != nil {
				return usagef("--hash %q: give sha256 or shake256", alg)
			}
			d.Write(out)
			_, err = fmt.Fprintln(a.stdout, d.Sum())
			return err
		},
	}
	cmd.Flags().StringVar(&alg, "hash", "", "print the digest instead: sha256 or shake256")
	return cmd
}

// leafTags are the agent-manifest leaf tags by their short names.
var leafTags = map[string]string{
	"trace": merkle.TagTraceEntry, "kv": merkle.TagKV, "vec": merkle.TagVec,
	"gnode": merkle.TagGraphNode, "gedge": merkle.TagGraphEdge,
}

// docLeaves reads one JSON document per line and returns each document's
// canonical form and leaf under tag.
func (a *app) docLeaves(args []string, tag string) ([][]byte, []merkle.Hash, error) {
	t, ok := leafTags[tag]
	if !ok {
		return nil, nil, usagef("--tag %q: give trace, kv, vec, gnode or gedge", tag)
	}
	in, err := a.readInput(args)
	if err != nil {
		return nil, nil, err
	}
	var (
		docs   [][]byte
		leaves []merkle.Hash
	)
	sc := bufio.NewScanner(bytes.NewReader(in))
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		c, err := canon.Canonicalize(sc.Bytes())
		if err != nil {
			return nil, nil, usagef("line %d: %v", line, err)
		}
		docs = append(docs, c)
		leaves = append(leaves, merkle.LeafHash(t, c))
	}
	if err := sc.Err(); err != nil {
		return nil, nil, usagef("%v", err)
	}
	return docs, leaves, nil
}

func (a *app) merkleCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "merkle",
		Short: "Compute agent-manifest leaves, roots and proofs over JSON documents",
		Long: `merkle computes, with no database, what memgov's logs are built from: each
input line is one JSON document (an audit entry for --tag trace, a memory
operation for --tag kv, ...), its leaf is SHA-256(0x00 || tag || RFC 8785 form),
and the leaves in line order form an RFC 9162 Merkle log (spec §3.2.6.2,
§3.2.7.1). Hashes are printed as 64 hex digits, roots as sha256:<hex>.`,
		Example: `  memgov merkle leaf --tag kv ops.jsonl
  memgov merkle root --tag trace entries.jsonl --size 2
  memgov merkle root --tag trace --mode hash-chained entries.jsonl
  memgov merkle consistency --tag kv --from 1 --to 2 ops.jsonl
  memgov merkle inclusion --tag trace --index 0 entries.jsonl`,
	}
	var tag string
	var preimage bool
	leaf := &cobra.Command{
		Use:     "leaf [FILE]",
		Short:   "Print each document's leaf hash (or, with --preimage, tag and canonical bytes)",
		Example: "  memgov merkle leaf --tag kv ops.jsonl\n  echo '{\"key\":\"a\",\"op\":\"PUT\",\"value\":1}' | memgov merkle leaf --tag kv --preimage",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			docs, leaves, err := a.docLeaves(args, tag)
			if err != nil {
				return err
			}
			for i, l := range leaves {
				if preimage {
					// The preimage is binary (a NUL ends the tag): printed quoted.
					fmt.Fprintln(a.stdout, strconv.Quote(leafTags[tag]+string(docs[i])))
					continue
				}
				fmt.Fprintln(a.stdout, l.String())
			}
			return nil
		},
	}
	leaf.Flags().BoolVar(&preimage, "preimage", false, "print tag || canonical document, Go-quoted, instead of the hash")
	var (
		mode     string
		size     uint64
		from, to uint64
		index    uint64
	)
	load := func(args []string, size uint64) ([]merkle.Hash, error) {
		_, leaves, err := a.docLeaves(args, tag)
		if err != nil {
			return nil, err
		}
		if size > uint64(len(leaves)) {
			return nil, usagef("--size %d: the input has %d documents", size, len(leaves))
		}
		if size > 0 {
			leaves = leaves[:size]
		}
		return leaves, nil
	}
	root := &cobra.Command{
		Use:     "root [FILE]",
		Short:   "Print the root of the documents' log: merkle-log or hash-chained",
		Example: "  memgov merkle root --tag trace --size 3 entries.jsonl\n  memgov merkle root --tag trace --mode hash-chained entries.jsonl",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			leaves, err := load(args, size)
			if err != nil {
				return err
			}
			switch mode {
			case "merkle-log":
				fmt.Fprintln(a.stdout, merkle.Root(leaves).Prefixed())
			case "hash-chained":
				fmt.Fprintln(a.stdout, merkle.ChainRoot(leaves).Prefixed())
			default:
				return usagef("--mode %q: give merkle-log or hash-chained", mode)
			}
			return nil
		},
	}
	root.Flags().StringVar(&mode, "mode", "merkle-log", "merkle-log (RFC 9162) or hash-chained (chain_i = SHA-256(0x02 || chain_{i-1} || leaf_i))")
	root.Flags().Uint64Var(&size, "size", 0, "use the first SIZE documents (default: all)")
	consistency := &cobra.Command{
		Use:     "consistency --from M [--to N] [FILE]",
		Short:   "Print the RFC 9162 consistency proof from size M to size N, one node a line",
		Example: "  memgov merkle consistency --tag trace --from 2 --to 3 entries.jsonl",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			leaves, err := load(args, to)
			if err != nil {
				return err
			}
			if from > uint64(len(leaves)) {
				return usagef("--from %d is beyond size %d", from, len(leaves))
			}
			proof, err := merkle.ConsistencyProof(leaves, from)
			if err != nil {
				return usagef("%v", err)
			}
			for _, h := range proof {
				fmt.Fprintln(a.stdout, h.String())
			}
			return nil
		},
	}
	consistency.Flags().Uint64Var(&from, "from", 0, "the earlier size (required)")
	consistency.Flags().Uint64Var(&to, "to", 0, "the later size (default: all documents)")
	consistency.MarkFlagRequired("from")
	inclusion := &cobra.Command{
		Use:     "inclusion --index I [--size N] [FILE]",
		Short:   "Print the RFC 9162 inclusion proof (audit path) of document I (from 0), one node a line",
		Example: "  memgov merkle inclusion --tag kv --index 0 ops.jsonl",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			leaves, err := load(args, size)
			if err != nil {
				return err
			}
			proof, err := merkle.InclusionProof(leaves, index)
			if err != nil {
				return usagef("--index %d: %v", index, err)
			}
			for _, h := range proof {
				fmt.Fprintln(a.stdout, h.String())
			}
			return nil
		},
	}
	inclusion.Flags().Uint64Var(&index, "index", 0, "the document's position, from 0 (required)")
	inclusion.Flags().Uint64Var(&size, "size", 0, "the tree size (default: all documents)")
	inclusion.MarkFlagRequired("index")
	cmd.PersistentFlags().StringVar(&tag, "tag", "trace", "leaf tag: trace (am-trace-entry), kv (am-mem-kv), vec, gnode or gedge")
	cmd.AddCommand(leaf, root, consistency, inclusion)
	return cmd
}
