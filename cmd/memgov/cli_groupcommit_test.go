package main

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// memgov serve killed with SIGKILL while eight writers have writes in flight
// through its HTTP door: on reopening, every write it acknowledged is on the
// log exactly once, at the position it was answered with and in the order
// each writer was answered; no write is half-applied (audit verify --replay
// compares every served table with a replay of the log); and writes go on.
func TestServeKilledMidBatchKeepsEveryAcknowledgedWrite(t *testing.T) {
	const writers, killAfter = 8, 48
	c := newCLI(t)
	c.ok("", "init")
	tokens := make([]string, writers)
	for i := range writers {
		agent := fmt.Sprintf("agent-%d", i)
		c.ok("", "principal", "add", "--id", agent, "--role", "orchestrator", "--tenant", "acme")
		var tok struct {
			Token string `json:"token"`
		}
		if err := json.Unmarshal([]byte(c.ok("", "token", "create", "--principal", agent, "--json", "--by", "ops", "--reason", "writers")), &tok); err != nil {
			t.Fatal(err)
		}
		tokens[i] = tok.Token
	}

	cmd := exec.Command(bin, "serve", "--listen", "127.0.0.1:0")
	cmd.Env = c.env
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	defer func() {
		cmd.Process.Kill()
		<-exited
	}()
	httpRE := regexp.MustCompile(`http://(\S+)`)
	addr := ""
	sc := bufio.NewScanner(stdout)
	for addr == "" && sc.Scan() {
		if m := httpRE.FindStringSubmatch(sc.Text()); m != nil {
			addr = m[1]
		}
	}
	if addr == "" {
		t.Fatalf("serve did not say where it listens: %s", stderr.String())
	}
	go func() {
		io.Copy(io.Discard, stdout)
		cmd.Wait()
		close(exited)
	}()

	type ack struct {
		key, version string
		lsn          int64
	}
	var (
		mu     sync.Mutex
		acked  = make([][]ack, writers)
		total  int
		killed bool
	)
	hc := &http.Client{}
	var wg sync.WaitGroup
	for w := range writers {
		agent := fmt.Sprintf("agent-%d", w)
		wg.Go(func() {
			for i := 0; ; i++ {
				key := fmt.Sprintf("w%d-%04d", w, i)
				body, _ := json.Marshal(map[string]any{"source_agent_id": agent, "memory_ref": "acme/" + agent, "key": key,
					"target_layer": "EPISODIC", "observation_type": "user_stated_preference", "confidence": 0.9,
					"content":       map[string]any{"text": killText(w, i)},
					"evidence_refs": []any{map[string]any{"source_type": "HUMAN_INPUT", "source_uri": "chat://1", "authority": 1}}})
				req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/memories?wait=false", bytes.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+tokens[w])
				req.Header.Set("Content-Type", "application/json")
				resp, err := hc.Do(req)
				if err != nil {
					return // the server is gone: this write was never acknowledged
				}
				var res struct {
					Status    string `json:"status"`
					VersionID string `json:"version_id"`
					LSN       int64  `json:"lsn"`
				}
				derr := json.NewDecoder(resp.Body).Decode(&res)
				resp.Body.Close()
				if derr != nil || res.Status == "" {
					return // cut off mid-answer: not acknowledged
				}
				mu.Lock()
				if res.VersionID != "" {
					acked[w] = append(acked[w], ack{key: key, version: res.VersionID, lsn: res.LSN})
				}
				total++
				kill := total == killAfter && !killed
				killed = killed || kill
				mu.Unlock()
				if kill {
					// SIGKILL while the other writers' requests are in flight.
					cmd.Process.Kill()
				}
			}
		})
	}
	wg.Wait()
	<-exited
	if !killed {
		t.Fatalf("serve stopped before %d writes were answered: %s", killAfter, stderr.String())
	}

	// Reopened: the log and every table derived from it agree.
	if v, code := c.verify(t, "--replay"); code != 0 || !v.OK {
		t.Fatalf("audit verify --replay after SIGKILL: exit %d %+v", code, v)
	}
	db, err := sql.Open("sqlite", c.db)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	n := 0
	for w, as := range acked {
		last := int64(0)
		for _, a := range as {
			var count int
			var lsn int64
			var key string
			if err := db.QueryRow(`SELECT COUNT(*), MIN(l.lsn), MIN(v.key) FROM log l JOIN version_index v ON v.version_id = l.version_id
				WHERE l.version_id = ? AND l.op IN ('INSERT','UPDATE','MERGE','STAGE')`, a.version).Scan(&count, &lsn, &key); err != nil {
				t.Fatal(err)
			}
			if count != 1 || lsn != a.lsn || key != a.key || lsn <= last {
				t.Fatalf("writer %d: %s acknowledged at LSN %d (after %d); the log has it %d times, at %d, as %q", w, a.key, a.lsn, last, count, lsn, key)
			}
			last = lsn
			n++
		}
	}
	if n < killAfter/2 {
		t.Fatalf("only %d of %d answered writes were committed versions", n, killAfter)
	}
	var dupKeys int
	if err := db.QueryRow(`SELECT COUNT(*) FROM (SELECT key FROM version_index GROUP BY memory_ref, key HAVING COUNT(*) > 1)`).Scan(&dupKeys); err != nil {
		t.Fatal(err)
	}
	if dupKeys != 0 {
		t.Fatalf("%d keys were written more than once", dupKeys)
	}
	db.Close()

	// And the database takes writes again.
	again, _ := json.Marshal(map[string]any{"source_agent_id": "agent-0", "memory_ref": "acme/agent-0", "key": "after-restart",
		"target_layer": "EPISODIC", "observation_type": "user_stated_preference", "confidence": 0.9,
		"content":       map[string]any{"text": killText(99, 0)},
		"evidence_refs": []any{map[string]any{"source_type": "HUMAN_INPUT", "source_uri": "chat://1", "authority": 1}}})
	out := c.ok(string(again), "write", "--json")
	if !strings.Contains(out, `"COMMITTED"`) {
		t.Fatalf("write after the restart: %s", out)
	}
}

var killWords = strings.Fields(`amber basalt cedar delta ember fjord granite harbor indigo juniper kelp lantern meadow nickel orchard
	pebble quartz raven saffron timber umber violet willow xenon yarrow zephyr anchor bramble cobalt dune estuary falcon glacier heron`)

// killText is a sentence of its own for write i of writer w.
func killText(w, i int) string {
	r := rand.New(rand.NewPCG(uint64(w), uint64(i)))
	ws := make([]string, 8)
	for j := range ws {
		ws[j] = killWords[r.IntN(len(killWords))]
	}
	return fmt.Sprintf("Site %d-%d survey notes: %s.", w, i, strings.Join(ws, " "))
}
