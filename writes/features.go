package writes

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/judge"
	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/engine/oplog"
)

// An Indexer derives a version's features from its content. Version names
// the rules, word lists and lexicon that derive them: stored features carry
// it, and features of another version are stale (`memgov admin reindex`
// recomputes them). One engine uses one Indexer for its writes, its gates and
// its index.
type Indexer interface {
	Version() string
	// Features derives the features of a content object; a content that is
	// not a JSON object is an error.
	Features(content json.RawMessage) (memory.Features, error)
}

// hashedVectorsRevision names the revision of the built-in hashed vectors and
// their SimHash bands (engine/similar): bump it when similar.Embed, its
// normalisation or similar.Sign change the values they give.
const hashedVectorsRevision = "v1"

// builtinIndexer is the built-in judge's Indexer.
type builtinIndexer struct{}

func (builtinIndexer) Version() string { return judge.Version() + "+hv-" + hashedVectorsRevision }

func (builtinIndexer) Features(content json.RawMessage) (memory.Features, error) {
	return memory.FeaturesOf(content)
}

// BuiltinIndexer returns the Indexer of the built-in judge, which every
// engine uses unless engine.WithIndexer sets another.
func BuiltinIndexer() Indexer { return builtinIndexer{} }

// Features computes the features of a content with the service's Indexer,
// as the gates judge them and the index stores them.
func (s *Service) Features(content json.RawMessage) (memory.Features, error) {
	return s.indexer.Features(content)
}

// JudgeVersion names the engine's Indexer (rules, word lists, lexicon and
// hashed vectors) as stored with the features it computes.
func (s *Service) JudgeVersion() string { return s.indexer.Version() }

// versionFeatures is the stored form of a version's features, with the
// judge's sketch of its text (from the engine's judge, which has read the
// text when a write's gates just did).
func (s *Service) versionFeatures(versionID, memoryRef string, layer memgov.Layer, judgeVersion string, f memory.Features) (memgov.VersionFeatures, error) {
	emb, err := f.Embedding.MarshalBinary()
	if err != nil {
		return memgov.VersionFeatures{}, err
	}
	vf := memgov.VersionFeatures{VersionID: versionID, MemoryRef: memoryRef, Layer: layer, Judge: judgeVersion,
		Fingerprint: append([]byte(nil), f.Fingerprint[:]...), Subject: f.Subject, Predicate: f.Predicate, Object: f.Object, Embedding: emb,
		Sketch: s.rules.Sketch(f.Text)}
	for i, b := range f.SimHash.Bands() {
		vf.Bands = append(vf.Bands, uint32(i)<<16|uint32(b))
	}
	return vf, nil
}

// IndexFeatures returns the features the engine indexes a version with
// content by, as a store keeps them (without the version's identity).
func (s *Service) IndexFeatures(content json.RawMessage) (memgov.VersionFeatures, error) {
	f, err := s.Features(content)
	if err != nil {
		return memgov.VersionFeatures{}, err
	}
	return s.versionFeatures("", "", "", s.JudgeVersion(), f)
}

// indexEntry stores the features of the version a just-appended entry
// created (INSERT, UPDATE, MERGE or STAGE with content), in the entry's
// transaction. The store keeps them as a cache beside the version: it
// derives nothing from text itself.
func (s *Service) indexEntry(ctx context.Context, tx memgov.Tx, entry *oplog.Entry) error {
	switch entry.Op {
	case oplog.Insert, oplog.Update, oplog.Merge, oplog.Stage:
	default:
		return nil
	}
	p, err := entry.DecodePayload()
	if err != nil || len(p.Content) == 0 {
		return err
	}
	f, ok := analysedContent(ctx, p.Content)
	if !ok {
		if f, err = s.Features(p.Content); err != nil {
			return fmt.Errorf("index version %s (log entry %d): %w", entry.VersionID, entry.LSN, err)
		}
	}
	vf, err := s.versionFeatures(entry.VersionID, entry.MemoryRef, memgov.Layer(p.Layer), s.indexer.Version(), f)
	if err != nil {
		return err
	}
	return tx.PutFeatures(ctx, vf)
}

// analysed is a write's content with the features Write computed from it
// once, which the commit indexes again unless the version's content differs
// (a merge stores other content).
type analysed struct {
	content json.RawMessage
	feat    memory.Features
}

type analysedKey struct{}

// withAnalysed carries a write's analysed content to the commit's indexing.
func withAnalysed(ctx context.Context, content json.RawMessage, feat memory.Features) context.Context {
	return context.WithValue(ctx, analysedKey{}, &analysed{content: content, feat: feat})
}

// analysedContent returns the features Write computed, if the content is
// the same bytes.
func analysedContent(ctx context.Context, content json.RawMessage) (memory.Features, bool) {
	a, _ := ctx.Value(analysedKey{}).(*analysed)
	if a == nil || !bytes.Equal(a.content, content) {
		return memory.Features{}, false
	}
	return a.feat, true
}

// indexingStore is the engine's view of its store: every write transaction
// indexes the versions its appended entries create (indexingTx).
type indexingStore struct {
	memgov.Store
	s *Service
}

func (v indexingStore) Update(ctx context.Context, fn func(memgov.Tx) error) error {
	v.s.ListenErasures()
	var seen appended // what the transaction appended that other processes hear of (syncwait.go)
	err := v.Store.Update(ctx, func(tx memgov.Tx) error {
		seen = appended{}
		return fn(indexingTx{Tx: tx, s: v.s, seen: &seen})
	})
	if err == nil {
		v.s.notifyAppended(ctx, seen)
	}
	return err
}

// indexingTx appends through the store and then stores the features of the
// version the entry created.
type indexingTx struct {
	memgov.Tx
	s    *Service
	seen *appended
}

func (t indexingTx) Append(ctx context.Context, entry *oplog.Entry) error {
	if err := t.Tx.Append(ctx, entry); err != nil {
		return err
	}
	if t.seen != nil {
		t.seen.note(entry)
	}
	return t.s.indexEntry(ctx, t.Tx, entry)
}

// ReindexReport is the result of Reindex.
type ReindexReport struct {
	Judge     string             `json:"judge_version"`
	Reindexed int64              `json:"reindexed"`
	Before    memgov.IndexStatus `json:"before"`
	After     memgov.IndexStatus `json:"after"`
}

// reindexBatch is the number of versions one reindex transaction computes.
const reindexBatch = 500

// Reindex recomputes every judge-derived value (fingerprints, subjects,
// embeddings, SimHash bands) whose stored judge version is not the engine's,
// from the stored content, in batches of one transaction each. It appends
// nothing to the log and changes no row the log determines; erased versions
// have no content and get no features. progress, when set, is called with
// the number of versions recomputed so far.
func (s *Service) Reindex(ctx context.Context, progress func(done int64)) (ReindexReport, error) {
	rep := ReindexReport{Judge: s.indexer.Version()}
	var err error
	if rep.Before, err = s.IndexStatus(ctx); err != nil {
		return rep, err
	}
	after := ""
	for {
		var todo []memgov.FeatureTodo
		err := s.store.Update(ctx, func(tx memgov.Tx) error {
			var err error
			if todo, err = tx.FeatureTodo(ctx, rep.Judge, after, reindexBatch); err != nil {
				return err
			}
			for _, t := range todo {
				f, err := s.Features(t.Content)
				if err != nil {
					return fmt.Errorf("reindex version %s of %s: %w", t.VersionID, t.MemoryRef, err)
				}
				vf, err := s.versionFeatures(t.VersionID, t.MemoryRef, t.Layer, rep.Judge, f)
				if err != nil {
					return err
				}
				if err := tx.PutFeatures(ctx, vf); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return rep, err
		}
		if len(todo) == 0 {
			break
		}
		rep.Reindexed += int64(len(todo))
		after = todo[len(todo)-1].VersionID
		if progress != nil {
			progress(rep.Reindexed)
		}
	}
	if rep.After, err = s.IndexStatus(ctx); err != nil {
		return rep, err
	}
	return rep, nil
}

// IndexStatus counts the indexed versions whose features the engine's judge
// computed, another judge version computed, or nobody did.
func (s *Service) IndexStatus(ctx context.Context) (memgov.IndexStatus, error) {
	var st memgov.IndexStatus
	err := s.store.View(ctx, func(tx memgov.ReadTx) error {
		var err error
		st, err = tx.IndexStatus(ctx, s.indexer.Version())
		return err
	})
	return st, err
}
