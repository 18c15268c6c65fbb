package lifecycle

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/scope"
	"github.com/memgov/memgov/engine/similar"
)

// Promotion of episodic memory to semantic memory (spec §13.9:
// "corroboration across >= N independent observations"; §13.8: semantic
// memory is written through a promotion engine).
//
// Promote groups the ACTIVE episodes of a memoryRef that say the same thing —
// the same subject, predicate and object, or near-duplicate text (cosine >=
// the policy's dedup.semantic threshold) — and counts the independent ones: an
// episode is independent of those counted before it when it comes from
// another source agent or cites an external evidence URI not cited yet. A
// group with at least policy promotion.corroborations independent episodes is
// promoted by a governed Write to SEMANTIC memory under the key
// promoted/<hash> as the principal by (the memgov promoter or an agent), with
// MEMORY_ITEM evidence citing every corroborating episode plus their external
// evidence: every gate applies, so a promotion may commit, wait for a curator
// or be refused. A group already promoted (its key exists) is left alone.

// PromoterPrincipal is the conventional id of the principal that runs
// promotion (register it with memgov principal add).
const PromoterPrincipal = "memgov-promoter"

// Promotion statuses of a candidate group.
const (
	PromoteInsufficient = "INSUFFICIENT"     // fewer independent corroborations than N
	PromoteAlready      = "ALREADY_PROMOTED" // the semantic key exists
	PromoteWouldPromote = "WOULD_PROMOTE"    // dry run
	PromoteWritten      = "WRITTEN"          // the Write ran: see Result
)

// PromotionCandidate is one group of corroborating episodes.
type PromotionCandidate struct {
	Key            string              `json:"key"` // the semantic key it promotes to
	Text           string              `json:"text"`
	Subject        string              `json:"subject,omitempty"`
	Predicate      string              `json:"predicate,omitempty"`
	Object         string              `json:"object,omitempty"`
	Episodes       []string            `json:"episodes"` // keys of the episodes
	Agents         []string            `json:"agents"`
	URIs           []string            `json:"evidence_uris"`
	Corroborations int                 `json:"corroborations"` // independent episodes
	Status         string              `json:"status"`
	Result         *memgov.WriteResult `json:"result,omitempty"`
}

// PromoteReport is what one promotion pass found and did.
type PromoteReport struct {
	MemoryRef  string               `json:"memory_ref"`
	By         string               `json:"by"`
	DryRun     bool                 `json:"dry_run"`
	Required   int                  `json:"required"`
	Scanned    int                  `json:"scanned"`
	Promoted   int                  `json:"promoted"` // written and committed
	Deferred   int                  `json:"deferred"` // written, waiting for a curator
	Candidates []PromotionCandidate `json:"candidates"`
}

type episode struct {
	v    memgov.Version
	feat memory.Features
	ev   []oplog.EvidenceRef
}

type episodeGroup struct {
	eps  []episode
	feat memory.Features
}

// Promote runs one promotion pass over ref as by.
func (s *Service) Promote(ctx context.Context, ref, by string) (PromoteReport, error) {
	return s.promote(ctx, ref, by, false)
}

// PlanPromotion is Promote's dry run: it decides and writes nothing.
func (s *Service) PlanPromotion(ctx context.Context, ref, by string) (PromoteReport, error) {
	return s.promote(ctx, ref, by, true)
}

func externalURIs(evs []oplog.EvidenceRef) []string {
	var out []string
	for _, r := range evs {
		if r.SourceURI != "" && r.SourceType != "MEMORY_ITEM" && r.SourceType != "AGENT_REASONING" {
			out = append(out, r.SourceURI)
		}
	}
	return out
}

func (s *Service) promote(ctx context.Context, ref, by string, dry bool) (PromoteReport, error) {
	rep := PromoteReport{MemoryRef: ref, By: by, DryRun: dry, Required: s.policy.Promotion.Corroborations, Candidates: []PromotionCandidate{}}
	if _, err := scope.Parse(ref); err != nil {
		return rep, fmt.Errorf("%w: memory ref: %v", memgov.ErrInvalid, err)
	}
	var groups []*episodeGroup
	existing := map[string]bool{}
	err := s.store.View(ctx, func(tx memgov.ReadTx) error {
		p, err := tx.Principal(ctx, by)
		if err != nil {
			return fmt.Errorf("%w: unknown principal %q (register %s or pass an agent)", memgov.ErrUnauthorized, by, PromoterPrincipal)
		}
		if err := s.authz.Permit(p, authz.ActPromote, authz.Target{Ref: ref}); err != nil {
			return err
		}
		vs, err := tx.Active(ctx, memgov.ActiveQuery{MemoryRef: ref, Now: s.now()})
		if err != nil {
			return err
		}
		for _, v := range vs {
			if v.Layer == memgov.Semantic {
				existing[v.Key] = true
			}
			if v.Layer != memgov.Episodic || memgov.Reserved(v.Key) {
				continue
			}
			rep.Scanned++
			f, err := s.featuresOf(v.Content)
			if err != nil {
				return fmt.Errorf("promote: version %s: %w", v.ID, err)
			}
			ep := episode{v: v, feat: f}
			if pl, err := payloadAt(ctx, tx, v.CreatedLSN); err == nil {
				var m oplog.VersionData
				if json.Unmarshal(pl.Data, &m) == nil {
					ep.ev = m.Evidence
				}
			}
			groups = addToGroup(groups, ep, s.policy.Dedup.Semantic)
		}
		return nil
	})
	if err != nil {
		return rep, err
	}
	for _, g := range groups {
		c := candidateOf(g)
		switch {
		case c.Corroborations < rep.Required:
			c.Status = PromoteInsufficient
		case existing[c.Key]:
			c.Status = PromoteAlready
		case dry:
			c.Status = PromoteWouldPromote
		default:
			res, err := s.pipeline.Write(ctx, promotionRequest(g, c, ref, by))
			if err != nil {
				return rep, err
			}
			c.Status, c.Result = PromoteWritten, &res
			switch res.Status {
			case memgov.StatusCommitted, memgov.StatusMerged:
				rep.Promoted++
			case memgov.StatusDeferred:
				rep.Deferred++
			}
		}
		rep.Candidates = append(rep.Candidates, c)
	}
	return rep, nil
}

// addToGroup puts ep in the first group it corroborates: the same triple, or
// near-duplicate text of the group's first episode.
func addToGroup(groups []*episodeGroup, ep episode, minCos float64) []*episodeGroup {
	f := ep.feat
	for _, g := range groups {
		if f.Subject != "" && f.Predicate != "" && f.Object != "" {
			if g.feat.Subject == f.Subject && g.feat.Predicate == f.Predicate && g.feat.Object == f.Object {
				g.eps = append(g.eps, ep)
				return groups
			}
		}
		if f.Text != "" && similar.Cosine(g.feat.Embedding, f.Embedding) >= minCos {
			g.eps = append(g.eps, ep)
			return groups
		}
	}
	return append(groups, &episodeGroup{eps: []episode{ep}, feat: f})
}

func candidateOf(g *episodeGroup) PromotionCandidate {
	sort.SliceStable(g.eps, func(i, j int) bool { return g.eps[i].v.CreatedLSN < g.eps[j].v.CreatedLSN })
	c := PromotionCandidate{Text: g.feat.Text, Subject: g.feat.Subject, Predicate: g.feat.Predicate, Object: g.feat.Object,
		Episodes: []string{}, Agents: []string{}, URIs: []string{}}
	agents, uris := map[string]bool{}, map[string]bool{}
	for _, ep := range g.eps {
		c.Episodes = append(c.Episodes, ep.v.Key)
		independent := !agents[ep.v.CreatedBy]
		if independent {
			agents[ep.v.CreatedBy] = true
			c.Agents = append(c.Agents, ep.v.CreatedBy)
		}
		for _, u := range externalURIs(ep.ev) {
			if !uris[u] {
				uris[u] = true
				c.URIs = append(c.URIs, u)
				independent = true
			}
		}
		if independent {
			c.Corroborations++
		}
	}
	basis := g.feat.Subject + "\x00" + g.feat.Predicate + "\x00" + g.feat.Object
	if g.feat.Subject == "" || g.feat.Predicate == "" {
		basis = g.eps[0].v.ItemID
	}
	h := sha256.Sum256([]byte(basis))
	c.Key = "promoted/" + hex.EncodeToString(h[:8])
	return c
}

func promotionRequest(g *episodeGroup, c PromotionCandidate, ref, by string) memgov.WriteRequest {
	content := map[string]any{"text": c.Text}
	first := g.eps[0].v
	var raw map[string]any
	if json.Unmarshal(first.Content, &raw) == nil {
		for _, k := range []string{"subject", "predicate", "object"} {
			if v, ok := raw[k]; ok {
				content[k] = v
			}
		}
	}
	cb, _ := json.Marshal(content)
	conf := 0.0
	var evs []oplog.EvidenceRef
	seen := map[string]bool{}
	for _, ep := range g.eps {
		conf = max(conf, ep.v.Confidence)
		evs = append(evs, oplog.EvidenceRef{SourceType: "MEMORY_ITEM", SourceItemID: ep.v.ItemID})
		for _, r := range ep.ev {
			if r.SourceURI == "" || r.SourceType == "MEMORY_ITEM" || r.SourceType == "AGENT_REASONING" || seen[r.SourceURI] {
				continue
			}
			seen[r.SourceURI] = true
			evs = append(evs, r)
		}
	}
	if conf == 0 {
		conf = 0.5
	}
	return memgov.WriteRequest{SourceAgentID: by, MemoryRef: ref, Key: c.Key, TargetLayer: memgov.Semantic, Content: cb, Tags: []string{"promoted"},
		EvidenceRefs: evs, Confidence: &conf, ObservationType: "tool_result_verified",
		RequestID: "promote-" + c.Key[len("promoted/"):]}
}
