package sqlite_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/store/sqlite"
)

// Corrupt JSON in a served row is an error that names the table, the column
// and the row; it is never read as an empty value.
func TestCorruptStoredJSONNamesTheRow(t *testing.T) {
	path := seeded(t)
	ctx := context.Background()
	var versionID string
	{
		s, err := sqlite.Open(ctx, path, sqlite.Options{Key: testKey})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.View(ctx, func(tx memgov.ReadTx) error {
			it, err := tx.ItemByKey(ctx, "acme/bot", "k0")
			versionID = it.Head
			return err
		}); err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	tamper(t, path, "UPDATE versions SET tags = '[\"a\",' WHERE id = '"+versionID+"'",
		"UPDATE principals SET attributes = '{\"team\":' WHERE id = 'bot'")
	s, err := sqlite.Open(ctx, path, sqlite.Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.View(ctx, func(tx memgov.ReadTx) error {
		_, err := tx.Version(ctx, versionID)
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "versions.tags of row "+versionID) {
		t.Errorf("reading a version with corrupt tags: %v, want an error naming versions.tags of row %s", err, versionID)
	}
	err = s.View(ctx, func(tx memgov.ReadTx) error {
		_, err := tx.Principal(ctx, "bot")
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "principals.attributes of row bot") {
		t.Errorf("reading a principal with corrupt attributes: %v, want an error naming principals.attributes of row bot", err)
	}
}

// The judge-derived cache is not evidence: editing it is not tampering and a
// replay does not compare it, while the rows of version_index the log alone
// determines still are.
func TestJudgeCacheIsNotCompared(t *testing.T) {
	path := seeded(t)
	ctx := context.Background()
	tamper(t, path, "UPDATE version_features SET fingerprint = x'00', subject = 'edited', judge = 'another', bands = x''")
	s, err := sqlite.Open(ctx, path, sqlite.Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := s.VerifyReplay(ctx)
	s.Close()
	if err != nil || !rep.OK {
		t.Fatalf("verify --replay after editing the judge cache: %+v, %v; want clean", rep, err)
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("UPDATE version_index SET content_hash = 'sha256:edited' WHERE rowid = (SELECT MIN(rowid) FROM version_index)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err = sqlite.Open(ctx, path, sqlite.Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rep, err = s.VerifyReplay(ctx)
	if err != nil || rep.OK || rep.Table != "version_index" {
		t.Fatalf("verify --replay after editing version_index: %+v, %v; want a difference in version_index", rep, err)
	}
}
