package host

import (
	"context"
	"errors"
	"fmt"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/oplog"
)

// Links returns, for each of vs that the write path kept beside near texts,
// the versions it is linked to (relation NEAR_DUPLICATE, with the judge
// rule that linked them), keyed by version id. They are read from each
// version's log entry, so a database rebuilt from its log gives the same
// links. A link to a version r may not see is left out. A linked version's
// State is its state now ("" once it is gone); its text is not included:
// read it by its key, as its visibility allows. A version written before
// memgov recorded links has none.
func (s *Service) Links(ctx context.Context, r memgov.Reader, vs []memgov.Version) (map[string][]memgov.RelatedItem, error) {
	rd, err := s.reading(ctx, r)
	if err != nil {
		return nil, err
	}
	return s.links(ctx, vs, rd)
}

func (s *Service) links(ctx context.Context, vs []memgov.Version, rd authz.Reading) (map[string][]memgov.RelatedItem, error) {
	out := map[string][]memgov.RelatedItem{}
	if len(vs) == 0 {
		return out, nil
	}
	err := s.store.View(ctx, func(tx memgov.ReadTx) error {
		for _, v := range vs {
			if v.CreatedLSN <= 0 {
				continue
			}
			var links []oplog.Link
			if err := tx.LogRange(ctx, v.CreatedLSN, v.CreatedLSN, func(le *oplog.Entry) error {
				if le.VersionID != v.ID {
					return nil
				}
				d, err := oplog.DecodeOptionalData[oplog.VersionData](le)
				if err != nil {
					return fmt.Errorf("links of version %s: %w", v.ID, err)
				}
				links = d.Links
				return nil
			}); err != nil {
				return err
			}
			for _, l := range links {
				r := memgov.RelatedItem{Relation: l.Relation, ItemID: l.ItemID, VersionID: l.VersionID, Key: l.Key,
					Similarity: l.Similarity, Rule: l.Rule, RuleWords: l.RuleWords}
				lv, err := tx.Version(ctx, l.VersionID)
				switch {
				case err == nil:
					if s.authz.Visible(rd, lv) != nil {
						continue
					}
					r.State = lv.State
				case !errors.Is(err, memgov.ErrNotFound):
					return err
				}
				out[v.ID] = append(out[v.ID], r)
			}
		}
		return nil
	})
	return out, err
}
