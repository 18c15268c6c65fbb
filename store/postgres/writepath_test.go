package postgres_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/store/postgres"
)

// pgProc is one memgov process on the database: its own store (connection
// pool and band index) and engine.
type pgProc struct {
	s *postgres.Store
	e *engine.Engine
}

func openProc(t *testing.T, u string) pgProc {
	t.Helper()
	s, err := postgres.Open(context.Background(), u, postgres.Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return pgProc{s, engine.New(s, testKey)}
}

func (p pgProc) put(t *testing.T, ref, key, s string) {
	t.Helper()
	if _, err := p.e.Writes().Put(context.Background(), memgov.PutRequest{MemoryRef: ref, Key: key, Layer: memgov.Semantic,
		Content: text(s), Actor: curator, Confidence: 0.9, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
}

// byBands reports whether the band lookup alone (no content hash,
// fingerprint or subject) finds key near s in ref.
func (p pgProc) byBands(t *testing.T, ref, s, key string) bool {
	t.Helper()
	ctx := context.Background()
	feat, err := p.e.Writes().IndexFeatures(text(s))
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	if err := p.s.View(ctx, func(tx memgov.ReadTx) error {
		cs, err := tx.Candidates(ctx, memgov.CandidateQuery{MemoryRef: ref, Bands: feat.Bands})
		for _, c := range cs {
			found = found || c.Key == key
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return found
}

// topic returns the keys of ref's same-topic candidates for s.
func (p pgProc) topic(t *testing.T, ref, s string) map[string]bool {
	t.Helper()
	ctx := context.Background()
	keys := map[string]bool{}
	if err := p.s.View(ctx, func(tx memgov.ReadTx) error {
		cs, err := tx.TopicCandidates(ctx, memgov.TopicQuery{MemoryRef: ref, Layer: memgov.Semantic, Text: s})
		for _, c := range cs {
			keys[c.Key] = true
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return keys
}

// Several memgov processes share one PostgreSQL database, each with its own
// in-memory band index: a write by one process is found by the other's
// near-duplicate lookup although that one indexed the ref before; features a
// rolled back transaction stored are found by no lookup afterwards; an
// erasure in one process leaves the erased item out of the other's lookups.
func TestBandIndexAcrossProcesses(t *testing.T) {
	u := newURL(t, true)
	ctx := context.Background()
	server, cli := openProc(t, u), openProc(t, u)
	addCurator(t, server.e)
	const ref = "acme/support-bot"
	dana := "Dana's manager is Tomas, who joined the Lisbon office in 2019."
	danaNear := "Dana's manager is Tomas, who joined the Lisbon office in 2019!"
	server.put(t, ref, "dana/manager", dana)
	for name, p := range map[string]pgProc{"server": server, "cli": cli} {
		if !p.byBands(t, ref, danaNear, "dana/manager") {
			t.Fatalf("%s: the band lookup misses dana/manager", name)
		}
	}

	oslo := "Alice grew up in Oslo and moved to Bergen for her studies in 2011."
	osloNear := "Alice grew up in Oslo and moved to Bergen for her studies in 2011!"
	cli.put(t, ref, "alice/home", oslo)
	if !server.byBands(t, ref, osloNear, "alice/home") {
		t.Fatal("the server's band lookup misses the item the other process wrote after it indexed the ref")
	}

	// A transaction replaces dana/manager's features with another text's,
	// looks them up, and rolls back.
	porto := "The Porto warehouse ships parcels every Tuesday before noon."
	portoNear := "The Porto warehouse ships parcels every Tuesday before noon!"
	var danaVersion string
	if err := server.s.View(ctx, func(tx memgov.ReadTx) error {
		it, err := tx.ItemByKey(ctx, ref, "dana/manager")
		danaVersion = it.Head
		return err
	}); err != nil {
		t.Fatal(err)
	}
	portoFeat, err := server.e.Writes().IndexFeatures(text(porto))
	if err != nil {
		t.Fatal(err)
	}
	errRollback := errors.New("roll back")
	var inside bool
	err = server.s.Update(ctx, func(tx memgov.Tx) error {
		f := portoFeat
		f.VersionID, f.MemoryRef, f.Layer = danaVersion, ref, memgov.Semantic
		if err := tx.PutFeatures(ctx, f); err != nil {
			return err
		}
		near, err := server.e.Writes().IndexFeatures(text(portoNear))
		if err != nil {
			return err
		}
		cs, err := tx.Candidates(ctx, memgov.CandidateQuery{MemoryRef: ref, Bands: near.Bands})
		for _, c := range cs {
			inside = inside || c.Key == "dana/manager"
		}
		if err != nil {
			return err
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Fatalf("the rolled back transaction: %v", err)
	}
	if !inside {
		t.Fatal("inside its transaction, the band lookup misses the features it stored")
	}
	for name, p := range map[string]pgProc{"server": server, "cli": cli} {
		if p.byBands(t, ref, portoNear, "dana/manager") {
			t.Fatalf("%s: the rolled back features are a near-duplicate", name)
		}
		if !p.byBands(t, ref, danaNear, "dana/manager") {
			t.Fatalf("%s: after a rollback, the band lookup misses the committed features", name)
		}
	}

	if _, err := cli.e.Lifecycle().Erase(ctx, memgov.EraseRequest{Subject: "Alice", By: curator, Reason: "erasure request"}); err != nil {
		t.Fatal(err)
	}
	if server.byBands(t, ref, osloNear, "alice/home") {
		t.Fatal("the item the other process erased is still a band candidate")
	}
	if !server.byBands(t, ref, danaNear, "dana/manager") {
		t.Fatal("after an erasure, the band lookup misses the item that was not erased")
	}
}

// A write's same-topic query reads its own memoryRef and layer: another
// ref's text with the same words is no candidate.
func TestTopicQueryIsScoped(t *testing.T) {
	u := newURL(t, true)
	p := openProc(t, u)
	addCurator(t, p.e)
	p.put(t, "acme/support-bot", "office/lisbon", "The Lisbon office moved to Avenida da Liberdade in March.")
	p.put(t, "acme/sales-bot", "office/lisbon", "The Lisbon office moved to Rua Augusta in April.")
	p.put(t, "acme/support-bot", "office/porto", "The Porto warehouse ships parcels every Tuesday.")
	got := p.topic(t, "acme/support-bot", "Where is the Lisbon office now?")
	if !got["office/lisbon"] || got["office/porto"] || len(got) != 1 {
		t.Fatalf("support-bot's topic candidates = %v, want office/lisbon alone", got)
	}
	// The same key in the other ref: its text (Rua Augusta) is the one found.
	ctx := context.Background()
	var texts []string
	if err := p.s.View(ctx, func(tx memgov.ReadTx) error {
		cs, err := tx.TopicCandidates(ctx, memgov.TopicQuery{MemoryRef: "acme/sales-bot", Layer: memgov.Semantic, Text: "Lisbon office"})
		for _, c := range cs {
			texts = append(texts, c.Text)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(texts) != 1 || !strings.Contains(texts[0], "Rua Augusta") {
		t.Fatalf("sales-bot's topic candidates = %q, want its own text alone", texts)
	}
}

// A database of the schema before the packed bands (version_bands rows, no
// seq, no scope lexeme in version_fts) is upgraded when memgov opens it: its
// versions are found by the band and topic lookups, and the log verifies.
func TestUpgradeToPackedBands(t *testing.T) {
	u := newURL(t, true)
	ctx := context.Background()
	p := openProc(t, u)
	addCurator(t, p.e)
	const ref = "acme/support-bot"
	dana := "Dana's manager is Tomas, who joined the Lisbon office in 2019."
	p.put(t, ref, "dana/manager", dana)
	p.put(t, "acme/sales-bot", "dana/manager", dana)
	p.s.Close()
	// Take the database back to schema 3, as the build before wrote it.
	db := rawDB(t, u)
	for _, q := range []string{
		`ALTER TABLE version_fts DROP COLUMN tsv`,
		`ALTER TABLE version_fts ADD COLUMN tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED`,
		`CREATE INDEX version_fts_tsv ON version_fts USING GIN (tsv)`,
		`DROP FUNCTION memgov_fts_scope(text, text)`,
		`ALTER TABLE version_features DROP COLUMN seq`,
		`CREATE TABLE version_bands (memory_ref TEXT COLLATE "C" NOT NULL, band BIGINT NOT NULL, version_id TEXT COLLATE "C" NOT NULL,
			PRIMARY KEY (memory_ref, band, version_id))`,
		`INSERT INTO version_bands SELECT memory_ref, (get_byte(bands, 4*i)::bigint << 24) | (get_byte(bands, 4*i+1) << 16) | (get_byte(bands, 4*i+2) << 8) | get_byte(bands, 4*i+3), version_id
			FROM version_features, generate_series(0, length(bands)/4 - 1) AS i`,
		`DROP TABLE verify_log`,                           // migration 0005, after schema 4
		`ALTER TABLE version_features DROP COLUMN sketch`, // migration 0006
		`UPDATE memgov_schema SET version = 3`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var bandRows int
	if err := db.QueryRow(`SELECT COUNT(*) FROM version_bands`).Scan(&bandRows); err != nil || bandRows == 0 {
		t.Fatalf("the schema 3 database holds %d band rows (%v)", bandRows, err)
	}
	p = openProc(t, u)
	if got, want := p.s.Info().Version, strconv.Itoa(postgres.SchemaVersion()); got != want {
		t.Errorf("schema after the upgrade = %s, want %s", got, want)
	}
	var left bool
	if err := db.QueryRow(`SELECT to_regclass('version_bands') IS NOT NULL`).Scan(&left); err != nil || left {
		t.Errorf("version_bands after the upgrade: %v (%v)", left, err)
	}
	if !p.byBands(t, ref, dana+"!", "dana/manager") {
		t.Error("after the upgrade, the band lookup misses dana/manager")
	}
	if got := p.topic(t, ref, "Who manages Dana?"); !got["dana/manager"] {
		t.Errorf("after the upgrade, the topic candidates = %v, want dana/manager", got)
	}
	// A version written after the upgrade is found beside the old one.
	p.put(t, ref, "alice/home", "Alice grew up in Oslo and moved to Bergen for her studies in 2011.")
	if !p.byBands(t, ref, "Alice grew up in Oslo and moved to Bergen for her studies in 2011!", "alice/home") {
		t.Error("after the upgrade, the band lookup misses a new version")
	}
	rep, err := p.s.VerifyReplay(ctx)
	if err != nil || !rep.OK {
		t.Errorf("VerifyReplay after the upgrade = %+v, %v", rep, err)
	}
}
