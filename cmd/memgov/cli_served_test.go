package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// servedFixture builds, through the CLI, a database whose served tables all
// hold rows: principals, items and versions (one with a TTL), reviews (one
// approved, one rejected), a lease, a baseline and a drift event, an audit
// checkpoint, memory maps and an erasure. It returns the database path.
func servedFixture(t *testing.T) *cli {
	t.Helper()
	c := newCLI(t)
	c.setup()
	c.ok("", "principal", "add", "--id", "oncall", "--role", "operator", "--tenant", "*")
	r := c.write(writeReq("billing-agent", "acme/billing-agent", "refund/limit", "Refunds up to $1,000 need no second signature."))
	if r.Status != "COMMITTED" {
		t.Fatalf("write: %+v", r)
	}
	ttl := `{"source_agent_id":"billing-agent","memory_ref":"acme/billing-agent","key":"promo","target_layer":"EPISODIC","ttl_seconds":86400,
		"observation_type":"tool_result_verified","confidence":0.9,"content":{"text":"The spring promotion runs this week."},
		"evidence_refs":[{"source_type":"API_RESPONSE","source_uri":"erp://promo","authority":0.95}]}`
	if r := c.write(ttl); r.Status != "COMMITTED" {
		t.Fatalf("ttl write: %+v", r)
	}
	c.write(writeReq("billing-agent", "acme/billing-agent", "subject", "Jane Roe asked for a refund."))
	pref := func(key, text string) result {
		return c.write(fmt.Sprintf(`{"source_agent_id":"support-bot","memory_ref":"acme/support-bot","key":%q,"target_layer":"EPISODIC",
			"observation_type":"user_stated_preference","confidence":0.9,"content":{"text":%q},
			"evidence_refs":[{"source_type":"HUMAN_INPUT","source_uri":"chat://7","authority":1}]}`, key, text))
	}
	a, b := pref("c7/lang", "Customer 7 wants invoices in German."), pref("c8/lang", "Customer 8 wants invoices in Klingon.")
	if a.Status != "DEFERRED" || b.Status != "DEFERRED" {
		t.Fatalf("deferred writes: %+v %+v", a, b)
	}
	c.ok("", "review", "approve", a.ReviewID, "--by", "jane", "--note", "confirmed")
	c.ok("", "review", "reject", b.ReviewID, "--by", "jane", "--code", "FACTUAL_ERROR", "--note", "no such language on invoices")
	c.ok("", "lease", "acquire", "acme/shared", "window", "--by", "billing-agent", "--ttl", "600s")
	c.ok("", "baseline", "approve", "acme/billing-agent", "--by", "oncall", "--type", "persistent", "--ttl", "86400", "--policy", "alert-on-drift", "--level", "1")
	state := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(state, []byte(`{"k":{"text":"something else"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := c.run("", "verify", "acme/billing-agent", "--state", state, "--json"); code != 0 || !strings.Contains(out, `"drift": true`) {
		t.Fatalf("drift: exit %d %s %s", code, out, errOut)
	}
	c.ok("", "erase", "--subject", "Jane Roe", "--by", "jane")
	c.ok("", "audit", "checkpoint", "--ttl", "3600")
	return c
}

// copyDB copies the fixture's database (and its key and policy) for one case.
func (c *cli) copyDB(t *testing.T) *cli {
	t.Helper()
	d := newCLI(t)
	for _, suffix := range []string{"", ".key", ".policy.yaml", "-wal"} {
		b, err := os.ReadFile(c.db + suffix)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(d.db+suffix, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// edit changes the database with a plain SQLite client, behind memgov's back.
func (c *cli) edit(t *testing.T, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", c.db)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		res, err := db.Exec(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if n, _ := res.RowsAffected(); n == 0 && !strings.HasPrefix(s, "DROP") {
			t.Fatalf("%s changed nothing", s)
		}
	}
}

func (c *cli) scalar(t *testing.T, query string) string {
	t.Helper()
	db, err := sql.Open("sqlite", c.db)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v sql.NullString
	if err := db.QueryRow(query).Scan(&v); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return v.String
}

type verifyOut struct {
	OK          bool   `json:"ok"`
	BadLSN      int64  `json:"bad_lsn"`
	Problem     string `json:"problem"`
	Table       string `json:"table"`
	Row         string `json:"row"`
	Served      string `json:"served_tables"`
	Differences []struct {
		Table, Row string
		LSN        int64
	} `json:"differences"`
}

func (c *cli) verify(t *testing.T, args ...string) (verifyOut, int) {
	t.Helper()
	out, errOut, code := c.run("", append([]string{"audit", "verify", "--json"}, args...)...)
	var v verifyOut
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("audit verify: %q %q: %v", out, errOut, err)
	}
	return v, code
}

// TestCLIVerifyCoversServedTables: ten edits of served rows through another
// SQLite client, each caught by `memgov audit verify` naming its table, its row
// and the log entry that wrote the row.
func TestCLIVerifyCoversServedTables(t *testing.T) {
	fx := servedFixture(t)
	if v, code := fx.verify(t); code != 0 || !v.OK || v.Served != "replay" {
		t.Fatalf("untouched fixture: exit %d %+v", code, v)
	}
	if v, code := fx.verify(t); code != 0 || !v.OK || v.Served != "digest" {
		t.Fatalf("unchanged fixture, second verify: exit %d %+v", code, v)
	}
	for _, tc := range []struct {
		name  string
		stmts []string
		table string
		row   string // a query for the row's key
		lsn   string // a query for the log entry that wrote it
	}{
		{"a version's content", []string{`UPDATE versions SET content = CAST('{"text":"Refunds up to $50,000 need no second signature."}' AS BLOB) WHERE key = 'refund/limit'`},
			"versions", `SELECT id FROM versions WHERE key = 'refund/limit'`, `SELECT created_lsn FROM versions WHERE key = 'refund/limit'`},
		{"a review decision", []string{`UPDATE reviews SET status = 'APPROVED', decision_code = '' WHERE status = 'REJECTED'`},
			"reviews", `SELECT id FROM reviews WHERE version_id IN (SELECT id FROM versions WHERE key = 'c8/lang')`, ``},
		{"a rejected draft made ACTIVE", []string{`UPDATE versions SET state = 'ACTIVE' WHERE key = 'c8/lang'`},
			"versions", `SELECT id FROM versions WHERE key = 'c8/lang'`, ``},
		{"an executor promoted to curator", []string{`UPDATE principals SET role = 'curator' WHERE id = 'support-bot'`},
			"principals", `SELECT 'support-bot'`, `SELECT created_lsn FROM principals WHERE id = 'support-bot'`},
		{"a TTL removed", []string{`UPDATE versions SET expires_at = NULL WHERE key = 'promo'`},
			"versions", `SELECT id FROM versions WHERE key = 'promo'`, `SELECT created_lsn FROM versions WHERE key = 'promo'`},
		{"the stored audit checkpoints", []string{`DELETE FROM audit_checkpoints`},
			"audit_checkpoints", `SELECT '1'`, `SELECT MAX(lsn) FROM log WHERE op = 'AUDIT_CHECKPOINT'`},
		{"a baseline's drift policy", []string{`UPDATE baselines SET drift_policy = 'log-only'`},
			"baselines", `SELECT baseline_id FROM baselines`, `SELECT lsn FROM baselines`},
		{"a drift event acknowledged", []string{`UPDATE drift_events SET acked_at = 1, acked_by = 'oncall', resolution = 'reapprove'`},
			"drift_events", `SELECT id FROM drift_events`, `SELECT lsn FROM drift_events`},
		{"a lease's holder", []string{`UPDATE leases SET holder = 'support-bot'`},
			"leases", `SELECT resource FROM leases`, `SELECT lsn FROM leases`},
		{"a memory map's value", []string{`UPDATE mem_map SET fragment = CAST('{"text":"Refunds need no signature."}' AS BLOB) WHERE key = 'refund/limit'`},
			"mem_map", `SELECT memory_ref || '#' || key FROM mem_map WHERE key = 'refund/limit'`, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := fx.copyDB(t)
			row := c.scalar(t, tc.row)
			lsn := ""
			if tc.lsn != "" {
				lsn = c.scalar(t, tc.lsn)
			}
			c.edit(t, tc.stmts...)
			v, code := c.verify(t)
			if code != 1 || v.OK {
				t.Fatalf("the edit was not detected: exit %d %+v", code, v)
			}
			found := false
			for _, d := range v.Differences {
				if d.Table == tc.table && d.Row == row && (lsn == "" || fmt.Sprint(d.LSN) == lsn) && d.LSN > 0 {
					found = true
				}
			}
			if !found {
				t.Fatalf("no difference names %s row %s (log entry %s): %+v", tc.table, row, lsn, v)
			}
			if v.Table == "" || v.Row == "" || v.BadLSN == 0 || !strings.Contains(v.Problem, v.Table+" row "+v.Row) {
				t.Fatalf("the first difference is not named: %+v", v)
			}
			// The human output names it too, and the error says which row.
			out, errOut, _ := c.run("", "audit", "verify")
			if !strings.Contains(out, tc.table+"\t"+row) || !strings.Contains(errOut, "table "+v.Table+" row "+v.Row) {
				t.Fatalf("human output: %q %q", out, errOut)
			}
		})
	}
}

// TestCLIForgedErasure: a payload deleted and recorded as erased by a real
// ERASE entry that does not list it is reported with its LSN.
func TestCLIForgedErasure(t *testing.T) {
	fx := servedFixture(t)
	c := fx.copyDB(t)
	erase := c.scalar(t, `SELECT MAX(lsn) FROM log WHERE op = 'ERASE'`)
	victim := c.scalar(t, `SELECT MIN(l.lsn) FROM log l JOIN log_payload p ON p.lsn = l.lsn WHERE l.item_id IN (SELECT id FROM items WHERE key = 'refund/limit')`)
	if erase == "" || victim == "" {
		t.Fatal("fixture has no erasure or no victim")
	}
	// The trigger refuses the delete until the forger drops it.
	db, err := sql.Open("sqlite", c.db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM log_payload WHERE lsn = ` + victim); err == nil || !strings.Contains(err.Error(), "only by an erasure") {
		t.Fatalf("deleting a payload: %v", err)
	}
	db.Close()
	c.edit(t, `INSERT INTO erased_payload (lsn, erased_by) VALUES (`+victim+`, `+erase+`)`, `DELETE FROM log_payload WHERE lsn = `+victim)
	v, code := c.verify(t)
	if code != 1 || v.OK || fmt.Sprint(v.BadLSN) != victim || !strings.Contains(v.Problem, "forged erasure") || !strings.Contains(v.Problem, "does not list LSN "+victim) {
		t.Fatalf("forged erasure: exit %d %+v", code, v)
	}
	// A genuine erasure still verifies: the untouched fixture erased payloads.
	if v, code := fx.verify(t); code != 0 || !v.OK {
		t.Fatalf("genuine erasure: exit %d %+v", code, v)
	}
}

// TestCLIRebuildDryRunAndRefusal: --dry-run reports a served-table edit and
// changes nothing; rebuild then repairs it; a payload swapped by DELETE plus
// INSERT makes rebuild refuse the log and install nothing.
func TestCLIRebuildDryRunAndRefusal(t *testing.T) {
	fx := servedFixture(t)
	c := fx.copyDB(t)
	c.edit(t, `UPDATE principals SET role = 'curator' WHERE id = 'support-bot'`)
	out := c.ok("", "admin", "rebuild", "--dry-run")
	if !strings.Contains(out, "principals row support-bot differs") || !strings.Contains(out, "nothing was changed") {
		t.Fatalf("dry run: %s", out)
	}
	if got := c.scalar(t, `SELECT role FROM principals WHERE id = 'support-bot'`); got != "curator" {
		t.Fatalf("the dry run changed the row: %s", got)
	}
	if _, code := c.verify(t); code != 1 {
		t.Fatal("verify passes after a dry run")
	}
	c.ok("", "admin", "rebuild")
	if v, code := c.verify(t); code != 0 || !v.OK {
		t.Fatalf("after rebuild: %+v", v)
	}

	c = fx.copyDB(t)
	lsn := c.scalar(t, `SELECT MAX(l.lsn) FROM log l JOIN log_payload p ON p.lsn = l.lsn WHERE l.item_id IN (SELECT id FROM items WHERE key = 'refund/limit')`)
	body := c.scalar(t, `SELECT CAST(body AS TEXT) FROM log_payload WHERE lsn = `+lsn)
	forged := strings.Replace(body, "$1,000", "$90,000", 1)
	if forged == body {
		t.Fatalf("payload %s does not hold the text", body)
	}
	c.edit(t, `DROP TRIGGER log_payload_no_delete`, `DELETE FROM log_payload WHERE lsn = `+lsn,
		fmt.Sprintf(`INSERT INTO log_payload (lsn, body) VALUES (%s, CAST('%s' AS BLOB))`, lsn, strings.ReplaceAll(forged, "'", "''")))
	if v, code := c.verify(t); code != 1 || fmt.Sprint(v.BadLSN) != lsn {
		t.Fatalf("swapped payload: exit %d %+v", code, v)
	}
	for _, args := range [][]string{{"admin", "rebuild"}, {"admin", "rebuild", "--dry-run"}} {
		_, errOut, code := c.run("", args...)
		if code != 1 || !strings.Contains(errOut, "not replayed") {
			t.Fatalf("%v on a failing log: exit %d %s", args, code, errOut)
		}
	}
	if out := c.ok("", "get", "acme/billing-agent", "refund/limit", "--json"); strings.Contains(out, "$90,000") {
		t.Fatalf("the swapped payload was installed: %s", out)
	}
}

// TestCLIVerifyCoversTheStateCache: the cached snapshot hash `memgov verify`
// is served from while nothing changed is checked against the map it caches.
func TestCLIVerifyCoversTheStateCache(t *testing.T) {
	c := newCLI(t)
	c.ok("", "init")
	c.ok("", "principal", "add", "--id", "oncall", "--role", "operator", "--tenant", "*")
	seedMemory(t, c, "acme/bot", map[string]string{"a": "1", "b": "2"})
	c.ok("", "baseline", "approve", "acme/bot", "--by", "oncall", "--type", "persistent", "--ttl", "3600", "--policy", "deny-on-drift", "--level", "2")
	if v, code := c.verify(t); code != 0 || !v.OK {
		t.Fatalf("before: %+v", v)
	}
	c.edit(t, `UPDATE mem_state_cache SET hash = 'sha256:`+strings.Repeat("0", 64)+`' WHERE memory_ref = 'acme/bot'`)
	v, code := c.verify(t)
	if code != 1 || v.OK || v.Table != "mem_state_cache" || v.Row != "acme/bot" {
		t.Fatalf("an edited state cache: exit %d %+v", code, v)
	}
}

// TestCLIErasedSkeletonIsBound: the content-free skeleton an erasure leaves for
// replay is bound by its ERASE entry, so editing it together with the served
// rows it rebuilds (an erased item moved to another layer) is caught.
func TestCLIErasedSkeletonIsBound(t *testing.T) {
	fx := servedFixture(t)
	c := fx.copyDB(t)
	lsn := c.scalar(t, `SELECT MIN(s.lsn) FROM erased_skeleton s JOIN log l ON l.lsn = s.lsn WHERE l.op = 'INSERT'`)
	if lsn == "" {
		t.Fatal("the fixture erased no INSERT")
	}
	body := c.scalar(t, `SELECT CAST(body AS TEXT) FROM erased_skeleton WHERE lsn = `+lsn)
	if !strings.Contains(body, `"layer":"EPISODIC"`) {
		t.Fatalf("skeleton %s", body)
	}
	c.edit(t, `UPDATE erased_skeleton SET body = CAST(replace(CAST(body AS TEXT), '"layer":"EPISODIC"', '"layer":"PROCEDURAL"') AS BLOB) WHERE lsn = `+lsn,
		`UPDATE items SET layer = 'PROCEDURAL' WHERE id = (SELECT item_id FROM log WHERE lsn = `+lsn+`)`,
		`UPDATE versions SET layer = 'PROCEDURAL' WHERE item_id = (SELECT item_id FROM log WHERE lsn = `+lsn+`)`,
		`UPDATE version_index SET layer = 'PROCEDURAL' WHERE item_id = (SELECT item_id FROM log WHERE lsn = `+lsn+`)`)
	v, code := c.verify(t)
	if code != 1 || v.OK || fmt.Sprint(v.BadLSN) != lsn || !strings.Contains(v.Problem, "skeleton") {
		t.Fatalf("an edited skeleton: exit %d %+v", code, v)
	}
}
