package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/redact"
	"github.com/memgov/memgov/engine/scope"
	"github.com/memgov/memgov/engine/similar"
)

// MaxConsolidate bounds the entries one pass compares (pairwise, O(n^2)
// cosines): a ref with more long-term entries is consolidated over its
// newest MaxConsolidate.
const MaxConsolidate = 2000

// ConsolidateRequest asks for one consolidation pass.
type ConsolidateRequest struct {
	MemoryRef string
	Actor     string // a registered principal governing the ref's tenant
	RunID     string // whose secrets are redacted again, with the global ones
}

// ConsolidateResult reports a pass.
type ConsolidateResult struct {
	MemoryRef    string   `json:"memoryRef"`
	InputCount   int      `json:"inputCount"`
	OutputCount  int      `json:"outputCount"`
	Merged       int      `json:"merged"`       // near-duplicates folded into another entry
	Superseded   int      `json:"superseded"`   // stale facts replaced by a newer one
	Strengthened int      `json:"strengthened"` // entries whose confidence rose by corroboration
	Keys         []string `json:"keys"`         // entries that stopped being visible
	LSN          int64    `json:"lsn"`
}

type consEntry struct {
	v    memgov.Version
	f    memory.Features
	conf float64
}

// Consolidate runs one consolidation pass (spec §15.8) over the
// long-term (EPISODIC, SEMANTIC, PROCEDURAL), ACTIVE, unexpired entries of one
// memoryRef — never another's:
//
//  1. near-duplicates (same layer, equal structural fingerprint or cosine >=
//     the dedup threshold, transitively) merge into the newest of them: a
//     MERGE version of it with the union of tags; when different writers
//     corroborate it, its confidence rises to 1 - prod(1 - c_i) (at most
//     0.99), else to the highest of theirs;
//  2. stale facts — same layer, subject and predicate, another object — are
//     superseded by the newest (a MERGE that keeps the newest's content).
//
// Merged content is the newest entry's content passed through SR-1 redaction
// again. Because survivors keep their content, a second pass over an
// unchanged corpus finds nothing to do (outputCount == inputCount). Every
// change is a log entry, and a final CONSOLIDATE entry emits
// agent.memory.consolidated {inputCount, outputCount, memoryRef}.
func (e *Engine) Consolidate(ctx context.Context, r ConsolidateRequest) (ConsolidateResult, error) {
	res := ConsolidateResult{MemoryRef: r.MemoryRef, Keys: []string{}}
	_, err := scope.Parse(r.MemoryRef)
	if err != nil {
		return res, fmt.Errorf("%w: memory ref: %v", memgov.ErrInvalid, err)
	}
	red := e.redactor(r.RunID)
	err = e.store.Update(ctx, func(tx memgov.Tx) error {
		if err := requirePrincipal(ctx, tx, r.Actor); err != nil {
			return err
		}
		if _, err := e.permitTx(ctx, tx, r.Actor, authz.ActConsolidate, authz.Target{Ref: r.MemoryRef}); err != nil {
			return err
		}
		vs, err := tx.Active(ctx, memgov.ActiveQuery{MemoryRef: r.MemoryRef, Now: e.Now()})
		if err != nil {
			return err
		}
		var es []*consEntry
		for _, v := range vs {
			if Reserved(v.Key) || !v.Layer.Durable() || v.MemoryRef != r.MemoryRef {
				continue
			}
			f, err := e.featuresOf(v.Content)
			if err != nil {
				return fmt.Errorf("consolidate: version %s: %w", v.ID, err)
			}
			es = append(es, &consEntry{v: v, f: f, conf: v.Confidence})
		}
		sort.Slice(es, func(i, j int) bool { return es[i].v.CreatedLSN > es[j].v.CreatedLSN })
		if len(es) > MaxConsolidate {
			es = es[:MaxConsolidate]
		}
		res.InputCount = len(es)

		// 1. near-duplicate clusters (union-find).
		parent := make([]int, len(es))
		for i := range parent {
			parent[i] = i
		}
		find := func(i int) int {
			for parent[i] != i {
				parent[i] = parent[parent[i]]
				i = parent[i]
			}
			return i
		}
		for i := range es {
			for j := i + 1; j < len(es); j++ {
				a, b := es[i], es[j]
				if a.v.Layer != b.v.Layer {
					continue
				}
				if a.f.Fingerprint == b.f.Fingerprint || e.policy.NearDuplicate(similar.Cosine(a.f.Embedding, b.f.Embedding)) {
					if ra, rb := find(i), find(j); ra != rb {
						// es is newest first: the smaller index is the newer.
						parent[max(ra, rb)] = min(ra, rb)
					}
				}
			}
		}
		clusters := map[int][]int{}
		for i := range es {
			clusters[find(i)] = append(clusters[find(i)], i)
		}
		roots := make([]int, 0, len(clusters))
		for root := range clusters {
			roots = append(roots, root)
		}
		sort.Ints(roots)
		survivors := []*consEntry{}
		for _, root := range roots {
			members := clusters[root]
			rep := es[root]
			survivors = append(survivors, rep)
			if len(members) == 1 {
				continue
			}
			writers := map[string]bool{}
			tags := append([]string{}, rep.v.Tags...)
			keep := 1.0
			best := 0.0
			for _, m := range members {
				writers[es[m].v.CreatedBy] = true
				tags = append(tags, es[m].v.Tags...)
				keep *= 1 - clamp01(es[m].conf)
				best = math.Max(best, es[m].conf)
			}
			conf := best
			if len(writers) > 1 {
				conf = math.Max(best, math.Min(0.99, 1-keep))
				if conf > rep.conf {
					res.Strengthened++
				}
			}
			others := members[1:]
			sort.Slice(others, func(i, j int) bool { return es[others[i]].v.Key < es[others[j]].v.Key })
			for _, m := range others {
				o := es[m]
				head, err := e.mergeInto(ctx, tx, red, rep, o, normTags(tags), conf, r.Actor,
					fmt.Sprintf("consolidation: merged near-duplicate %s", o.v.Key))
				if err != nil {
					return err
				}
				rep.v.ID = head
				res.Merged++
				res.Keys = append(res.Keys, o.v.Key)
			}
			rep.conf = conf
		}

		// 2. stale facts: one survivor per (layer, subject, predicate).
		groups := map[string][]*consEntry{}
		for _, s := range survivors {
			if s.f.Subject == "" || s.f.Predicate == "" {
				continue
			}
			k := string(s.v.Layer) + "\x00" + s.f.Subject + "\x00" + s.f.Predicate
			groups[k] = append(groups[k], s)
		}
		for _, k := range sortedKeys(groups) {
			g := groups[k]
			if len(g) < 2 {
				continue
			}
			sort.Slice(g, func(i, j int) bool { return g[i].v.CreatedLSN > g[j].v.CreatedLSN })
			win := g[0]
			for _, o := range g[1:] {
				head, err := e.mergeInto(ctx, tx, red, win, o, win.v.Tags, win.conf, r.Actor,
					fmt.Sprintf("consolidation: %s supersedes the stale fact %s", win.v.Key, o.v.Key))
				if err != nil {
					return err
				}
				win.v.ID = head
				res.Superseded++
				res.Keys = append(res.Keys, o.v.Key)
			}
		}
		res.OutputCount = res.InputCount - res.Merged - res.Superseded
		data, err := json.Marshal(oplog.ConsolidateData{InputCount: res.InputCount, OutputCount: res.OutputCount,
			Merged: res.Merged, Superseded: res.Superseded, Strengthened: res.Strengthened})
		if err != nil {
			return err
		}
		entry := &oplog.Entry{Time: e.Now(), Op: oplog.Consolidate, MemoryRef: r.MemoryRef, Actor: r.Actor}
		if err := oplog.Append(ctx, tx, entry, oplog.Payload{Reason: "consolidation pass", Data: data}); err != nil {
			return err
		}
		res.LSN = entry.LSN
		return nil
	})
	if err != nil {
		return ConsolidateResult{MemoryRef: r.MemoryRef, Keys: []string{}}, err
	}
	return res, nil
}

// mergeInto appends a MERGE version of into's item that keeps into's content
// (redacted again) and supersedes from's version. It returns the new head.
func (e *Engine) mergeInto(ctx context.Context, tx memgov.Tx, red *redact.Redactor, into, from *consEntry, tags []string, conf float64, actor, reason string) (string, error) {
	content := into.v.Content
	if !red.Empty() {
		c, err := red.JSON(content)
		if err != nil {
			return "", err
		}
		if content, err = canon.Canonicalize(c); err != nil {
			return "", err
		}
		for i, t := range tags {
			tags[i] = red.String(t)
		}
	}
	entry := &oplog.Entry{Time: e.Now(), Op: oplog.Merge, MemoryRef: into.v.MemoryRef, ItemID: into.v.ItemID, VersionID: oplog.NewID(),
		PrevVersionID: into.v.ID, Actor: actor}
	vs := into.v.ValidationScore
	p := oplog.Payload{Reason: reason, Key: into.v.Key, Layer: string(into.v.Layer), Content: content, ContentHash: oplog.HashPayload(content),
		Tags: normTags(tags), Confidence: &conf, ValidationScore: &vs, Classification: into.v.Classification, MergedFrom: from.v.ID}
	if into.v.ExpiresAt != nil {
		p.ExpiresAt = into.v.ExpiresAt.UTC().Format(oplog.TimeFormat)
	}
	if err := oplog.Append(ctx, tx, entry, p); err != nil {
		return "", err
	}
	into.v.Content = content
	into.v.Tags = p.Tags
	return entry.VersionID, nil
}

func clamp01(f float64) float64 { return math.Max(0, math.Min(1, f)) }
