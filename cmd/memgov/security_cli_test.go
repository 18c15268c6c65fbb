package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/store/sqlite"
)

// holdOpen keeps a connection to the database open so SQLite keeps its WAL
// file between the commands: the byte scans then read the WAL too.
func holdOpen(t *testing.T, db string) *sqlite.Store {
	t.Helper()
	key, err := os.ReadFile(db + ".key")
	if err != nil {
		t.Fatal(err)
	}
	s, err := sqlite.Open(context.Background(), db, sqlite.Options{Key: bytes.TrimSpace(key)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// scanFiles reports which of the database's files (main, -wal, -shm) hold
// any of needles, and how many files it read.
func scanFiles(t *testing.T, db string, needles ...string) (found []string, read int) {
	t.Helper()
	for _, p := range []string{db, db + "-wal", db + "-shm"} {
		b, err := os.ReadFile(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		read++
		for _, n := range needles {
			if bytes.Contains(b, []byte(n)) || bytes.Contains(bytes.ToLower(b), bytes.ToLower([]byte(n))) {
				found = append(found, filepath.Base(p)+": "+n)
			}
		}
	}
	return found, read
}

// TestSecretInEveryField registers a secret and writes it into every field of
// every command that stores input; then the database file and its WAL hold
// no byte of it.
func TestSecretInEveryField(t *testing.T) {
	const secret = "sk_live_SCANME0123456789"
	c := newCLI(t)
	c.setup()
	s := holdOpen(t, c.db)
	defer s.Close()
	sec := []string{"--secret", "stripe=" + secret}

	req := map[string]any{
		"request_id": "req-" + secret, "source_agent_id": "support-bot", "memory_ref": "acme/support-bot", "key": "pay/notes",
		"target_layer": "SESSION", "content": map[string]any{"text": "the key is " + secret, "subject": secret, "object": secret},
		"tags":             []string{"t-" + secret},
		"evidence_refs":    []map[string]any{{"source_type": "HUMAN_INPUT", "source_uri": "chat://" + secret, "source_item_id": "item-" + secret, "authority": 1, "excerpt": "said " + secret}},
		"confidence":       0.9,
		"observation_type": "obs-" + secret, "idempotency_token": "tok-" + secret, "run_id": "run-" + secret, "session_id": "sess-" + secret,
	}
	b, _ := json.Marshal(req)
	out, errOut, code := c.run(string(b), append([]string{"write", "--json"}, sec...)...)
	if code != 0 || !strings.Contains(out, "COMMITTED") {
		t.Fatalf("write with a secret in every field: exit %d %s%s", code, out, errOut)
	}
	// Identifiers cannot be redacted: refused, and nothing is stored.
	for _, field := range []string{"memory_ref", "key"} {
		r := map[string]any{"source_agent_id": "support-bot", "memory_ref": "acme/support-bot", "key": "k",
			"target_layer": "SESSION", "content": map[string]any{"text": "x"}}
		if field == "memory_ref" {
			r["memory_ref"] = "acme/support-bot/" + secret
		} else {
			r["key"] = "k/" + secret
		}
		b, _ := json.Marshal(r)
		out, errOut, code := c.run(string(b), append([]string{"write", "--json"}, sec...)...)
		if code != exitRejected || !strings.Contains(out, "SECRET_IN_IDENTIFIER") {
			t.Errorf("secret in %s: exit %d %s%s", field, code, out, errOut)
		}
	}
	// Proposals: title, rationale, artifact, source runs, workspace, run.
	art := filepath.Join(t.TempDir(), "art.json")
	if err := os.WriteFile(art, []byte(`{"template":"use `+secret+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out = c.ok("", append([]string{"proposal", "create", "--kind", "prompt-template", "--file", art, "--by", "support-bot",
		"--title", "t " + secret, "--rationale", "r " + secret, "--source-run", "run-" + secret, "--workspace", "ws-" + secret,
		"--run", "r1", "--json"}, sec...)...)
	var p struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil || p.ID == "" {
		t.Fatalf("proposal create: %v %s", err, out)
	}
	c.ok("", append([]string{"proposal", "revise", p.ID, "--file", art, "--by", "support-bot", "--rationale", "again " + secret, "--run", "r1"}, sec...)...)
	// Distill and consolidate take the registry too.
	c.ok("", append([]string{"distill", "acme/support-bot", "--by", "jane", "--run", "r1"}, sec...)...)
	c.ok("", append([]string{"consolidate", "acme/support-bot", "--by", "jane", "--run", "r1"}, sec...)...)

	found, read := scanFiles(t, c.db, secret)
	if read < 2 {
		t.Fatalf("scanned %d files; the WAL was expected beside the database", read)
	}
	if len(found) > 0 {
		t.Fatalf("the secret is stored in plaintext: %v", found)
	}
	// The redacted values are there, so the scan read the right files.
	if f, _ := scanFiles(t, c.db, "[REDACTED:stripe]"); len(f) == 0 {
		t.Fatal("no redaction marker in the database: the scan proves nothing")
	}
}

// TestErasureLeavesNoIdentifier erases a subject named in content only
// (COMPLETED, gone from every byte) and one also named in a memoryRef
// (INCOMPLETE, with the places left, counted by the compliance report);
// audit verify passes after both.
func TestErasureLeavesNoIdentifier(t *testing.T) {
	c := newCLI(t)
	c.setup()
	s := holdOpen(t, c.db)
	defer s.Close()
	write := func(ref, key, text string) {
		r := c.write(`{"source_agent_id":"billing-agent","memory_ref":"` + ref + `","key":"` + key + `","target_layer":"SESSION",
			"content":{"text":"` + text + `"}}`)
		if r.Status != "COMMITTED" {
			t.Fatalf("write %s: %+v", key, r)
		}
	}
	write("acme/billing-agent", "c1", "Jan Nowakowski prefers invoices by post.")
	write("acme/billing-agent", "c2", "Ola Wisniewska-Zielinska asked for a refund.")
	write("acme/billing-agent/ola-wisniewska-zielinska", "notes", "Ola Wisniewska-Zielinska called twice.")

	var rep struct {
		Status string   `json:"status"`
		Left   []string `json:"left"`
		Items  int      `json:"items"`
	}
	out := c.ok("", "erase", "--subject", "Jan Nowakowski", "--by", "jane", "--json")
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Status != "COMPLETED" || rep.Items != 1 || len(rep.Left) != 0 {
		t.Fatalf("erase by content: %v %s", err, out)
	}
	if found, read := scanFiles(t, c.db, "Jan Nowakowski", "Nowakowski"); read < 2 || len(found) > 0 {
		t.Fatalf("after erasure (%d files read) the subject is still in: %v", read, found)
	}

	out = c.ok("", "erase", "--subject", "Ola Wisniewska-Zielinska", "--id", "ola-wisniewska-zielinska", "--by", "jane", "--json")
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Status != "INCOMPLETE" || len(rep.Left) == 0 || rep.Items != 2 {
		t.Fatalf("erase with the subject in a memoryRef: %v %s", err, out)
	}
	for _, l := range rep.Left {
		if strings.Contains(strings.ToLower(l), "wisniewska") {
			t.Errorf("the report names the subject: %q", l)
		}
	}
	// The content is gone; what is left is exactly the memoryRef, as reported.
	if found, _ := scanFiles(t, c.db, "Ola Wisniewska-Zielinska called", "asked for a refund"); len(found) > 0 {
		t.Fatalf("erased content still in the file: %v", found)
	}
	if found, _ := scanFiles(t, c.db, "ola-wisniewska-zielinska"); len(found) == 0 {
		t.Fatal("INCOMPLETE names a place left, but the identifier is nowhere: the report is wrong")
	}
	var comp struct {
		Incomplete int  `json:"erasures_incomplete"`
		OK         bool `json:"ok"`
	}
	if err := json.Unmarshal([]byte(c.ok("", "compliance", "report", "--json")), &comp); err != nil || comp.Incomplete != 1 || comp.OK {
		t.Fatalf("compliance report: %v %+v", err, comp)
	}
	c.ok("", "audit", "verify")
}

func fileSum(t *testing.T, p string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// TestWrongOrMissingKeyRefusedBeforeAnyWrite: a wrong key and a missing key
// file are refused and the database file is not touched; the files are 0600.
func TestWrongOrMissingKeyRefusedBeforeAnyWrite(t *testing.T) {
	c := newCLI(t)
	c.setup()
	before := fileSum(t, c.db)
	size := c.logSize()
	req := `{"source_agent_id":"support-bot","memory_ref":"acme/support-bot","key":"k","target_layer":"SESSION","content":{"text":"x"}}`

	wrong := append(append([]string(nil), c.env...), "MEMGOV_KEY=this-is-not-the-key-of-this-database")
	orig := c.env
	c.env = wrong
	for _, args := range [][]string{{"write", "--json"}, {"principal", "add", "--id", "eve", "--role", "curator", "--tenant", "*"}, {"init"}} {
		_, errOut, code := c.run(req, args...)
		if code == 0 || !strings.Contains(errOut, "the key does not match this database") {
			t.Errorf("memgov %s with a wrong key: exit %d %q", strings.Join(args, " "), code, errOut)
		}
	}
	c.env = orig
	if after := fileSum(t, c.db); after != before {
		t.Error("a refused wrong key changed the database file")
	}
	if got := c.logSize(); got != size {
		t.Errorf("the log grew under a wrong key: %d -> %d", size, got)
	}
	before = fileSum(t, c.db)

	if err := os.Rename(c.db+".key", c.db+".key.bak"); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init"}, {"write", "--json"}} {
		_, errOut, code := c.run(req, args...)
		if code == 0 || !strings.Contains(errOut, "key file") {
			t.Errorf("memgov %s without the key file: exit %d %q", strings.Join(args, " "), code, errOut)
		}
	}
	if _, err := os.Stat(c.db + ".key"); err == nil {
		t.Error("init wrote a new key for an existing database")
	}
	if after := fileSum(t, c.db); after != before {
		t.Error("a refused missing key changed the database file")
	}
	if err := os.Rename(c.db+".key.bak", c.db+".key"); err != nil {
		t.Fatal(err)
	}

	// A database made before fingerprints: the first log entry's chain
	// decides, and the right key records the fingerprint.
	db, err := sql.Open("sqlite", c.db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM key_meta`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	c.env = wrong
	if _, errOut, code := c.run(req, "write", "--json"); code == 0 || !strings.Contains(errOut, "the key does not match this database") {
		t.Errorf("a wrong key on a database without a fingerprint: exit %d %q", code, errOut)
	}
	c.env = orig
	if got := c.logSize(); got != size {
		t.Errorf("the log grew under a wrong key: %d -> %d", size, got)
	}

	// Modes: the database, its WAL and shared memory, and the key; a
	// database left readable by others is tightened when it is opened.
	if err := os.Chmod(c.db, 0o644); err != nil {
		t.Fatal(err)
	}
	s := holdOpen(t, c.db)
	defer s.Close()
	c.ok(req, "write", "--json")
	checked := 0
	for _, p := range []string{c.db, c.db + "-wal", c.db + "-shm", c.db + ".key"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(p), err)
			continue
		}
		checked++
		if m := fi.Mode().Perm(); m != 0o600 {
			t.Errorf("%s has mode %o, want 600", filepath.Base(p), m)
		}
	}
	if checked != 4 {
		t.Fatalf("checked %d of 4 files", checked)
	}
}

// TestIdentifiersCleanAndOutputSanitised: identifiers with control, escape,
// bidi or zero-width characters are refused; content that carries them is
// stored but reaches no terminal raw, on any command; JSON escapes them.
func TestIdentifiersCleanAndOutputSanitised(t *testing.T) {
	c := newCLI(t)
	c.setup()
	const osc52 = "\x1b]52;c;aGVsbG8=\x07"
	base := map[string]any{"source_agent_id": "support-bot", "memory_ref": "acme/support-bot", "key": "k1",
		"target_layer": "SESSION", "content": map[string]any{"text": "x"}}
	for field, bad := range map[string]any{
		"key":           "k" + osc52,
		"run_id":        "r\u202e1",
		"session_id":    "s\u200b1",
		"evidence_refs": []map[string]any{{"source_type": "HUMAN_INPUT", "source_uri": "chat://" + osc52, "authority": 1}},
		"request_id":    "q\u0085",
	} {
		r := map[string]any{}
		for k, v := range base {
			r[k] = v
		}
		r[field] = bad
		b, _ := json.Marshal(r)
		out, errOut, code := c.run(string(b), "write", "--json")
		if code != exitRejected || !strings.Contains(out, "SCHEMA_INVALID") || !strings.Contains(out, "U+") || strings.ContainsAny(out+errOut, "\x1b\u202e\u200b\u0085") {
			t.Errorf("%s with a control character: exit %d %q %q", field, code, out, errOut)
		}
	}
	art := filepath.Join(t.TempDir(), "a.json")
	os.WriteFile(art, []byte(`{"a":1}`), 0o600)
	if _, errOut, code := c.run("", "proposal", "create", "--kind", "prompt-template", "--file", art, "--by", "support-bot", "--title", "t"+osc52); code == 0 || !strings.Contains(errOut, "title") {
		t.Errorf("proposal title with an escape: exit %d %q", code, errOut)
	}

	// Content is free text. The write pipeline's content policy refuses
	// escapes and invisible characters, but text can arrive by other ways (the
	// Go API's Put, a reason, a note): whatever is stored is printed sanitised.
	text := "pay now " + osc52 + " \u202eevil\u202c and \u200bhidden"
	s := holdOpen(t, c.db)
	key, _ := os.ReadFile(c.db + ".key")
	eng := engine.New(s, bytes.TrimSpace(key))
	content, _ := json.Marshal(map[string]string{"text": text})
	put, err := eng.Writes().Put(context.Background(), memgov.PutRequest{MemoryRef: "acme/support-bot", Key: "k2", Layer: memgov.Session, Content: content, Actor: "support-bot", Reason: "r " + osc52})
	if err == nil {
		// A key written before identifiers were checked.
		_, err = eng.Writes().Put(context.Background(), memgov.PutRequest{MemoryRef: "acme/legacy", Key: "old" + osc52 + "\u202ekey", Layer: memgov.Session, Content: content, Actor: "support-bot", Reason: "legacy"})
	}
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	w := result{ItemID: put.ItemID}
	for _, args := range [][]string{{"history", w.ItemID}, {"get", "acme/support-bot", "k2"}, {"list", "acme/support-bot"},
		{"at", "acme/support-bot", "--lsn", strconv.FormatInt(put.LSN, 10)}, {"search", "acme/support-bot", "pay now"}} {
		out, errOut, code := c.run("", args...)
		if code != 0 || !strings.Contains(out, "pay now") {
			t.Errorf("memgov %s: exit %d %q %q", strings.Join(args, " "), code, out, errOut)
		}
		if strings.ContainsAny(out+errOut, "\x1b\x07\u202e\u202c\u200b") {
			t.Errorf("memgov %s prints a control or invisible character raw: %q", strings.Join(args, " "), out)
		}
	}
	legacy := c.ok("", "list", "acme/legacy", "--json")
	var entries []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(legacy), &entries); err != nil || len(entries) != 1 {
		t.Fatalf("list --json: %v %q", err, legacy)
	}
	item := jsonField(c.ok("", "get", "acme/legacy", entries[0].ID, "--full"), "item_id")
	if out, errOut, code := c.run("", "history", item); code != 0 || !strings.Contains(out, "old") || strings.ContainsAny(out+errOut, "\x1b\x07\u202e") {
		t.Errorf("history of an item with a legacy key prints it raw: exit %d %q", code, out)
	}
	out := c.ok("", "get", "acme/support-bot", "k2", "--json")
	if strings.ContainsAny(out, "\x1b\x07\u202e\u200b") || !strings.Contains(out, `\u001b]52`) || !strings.Contains(out, `\u202e`) {
		t.Errorf("get --json does not escape: %q", out)
	}
	var e struct {
		Content string `json:"content"`
	}
	if err := json.Unmarshal([]byte(out), &e); err != nil || e.Content != text {
		t.Errorf("get --json does not round-trip the stored text: %v %q", err, e.Content)
	}
}
