package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// servedProcess is one `memgov serve` started by a test.
type servedProcess struct {
	cmd    *exec.Cmd
	addr   string
	stderr *lockedBuffer
	done   chan struct{} // closed when the process has exited
	err    error         // its exit, once done is closed
}

// lockedBuffer collects a process's stderr while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startServeProcess starts `memgov serve` on a loopback port chosen by the system
// and waits until it says where it listens.
func (c *cli) startServeProcess(t *testing.T) *servedProcess {
	t.Helper()
	p := &servedProcess{cmd: exec.Command(bin, "serve", "--listen", "127.0.0.1:0", "--log-level", "warn"), stderr: &lockedBuffer{}, done: make(chan struct{})}
	p.cmd.Env = c.env
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
	})
	re := regexp.MustCompile(`http://(\S+)`)
	sc := bufio.NewScanner(stdout)
	for p.addr == "" && sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			p.addr = m[1]
		}
	}
	go func() {
		io.Copy(io.Discard, stdout)
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	if p.addr == "" {
		t.Fatalf("serve did not say where it listens: %s", p.stderr.String())
	}
	return p
}

// pgWriteOutcome is what one HTTP write ended with.
type pgWriteOutcome struct {
	key, text, status, versionID string
	failed                       bool // no answer: the process died with the request
}

// postWrite sends one governed write over the JSON API.
func postWrite(hc *http.Client, addr, token, agent, ref, key, text string) (pgWriteOutcome, error) {
	out := pgWriteOutcome{key: key, text: text}
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/memories?wait=false", strings.NewReader(writeReq(agent, ref, key, text)))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		out.failed = true
		return out, err
	}
	defer resp.Body.Close()
	var res struct {
		Status    string `json:"status"`
		VersionID string `json:"version_id"`
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		out.failed = true
		return out, err
	}
	if err := json.Unmarshal(b, &res); err != nil || res.Status == "" {
		return out, fmt.Errorf("HTTP %d: %s", resp.StatusCode, b)
	}
	out.status, out.versionID = res.Status, res.VersionID
	return out, nil
}

// TestCLIPostgresTwoServesOneKilled runs two `memgov serve` processes on one
// PostgreSQL database, four HTTP clients on each, and kills one process with
// SIGKILL mid-run. Every write a process acknowledged as committed is on the
// log exactly once, no write is on it more than once, the log and every
// served table verify by a full replay, and the survivor keeps serving.
func TestCLIPostgresTwoServesOneKilled(t *testing.T) {
	c := newPGCLI(t)
	c.ok("", "init")
	const clients = 8 // four on each process
	tokens := make([]string, clients)
	for i := range tokens {
		id := fmt.Sprintf("agent-%d", i)
		c.ok("", "principal", "add", "--id", id, "--role", "orchestrator", "--tenant", "acme")
		tokens[i] = jsonField(c.ok("", "token", "create", "--principal", id, "--json"), "token")
		if tokens[i] == "" {
			t.Fatalf("no token for %s", id)
		}
	}
	a, b := c.startServeProcess(t), c.startServeProcess(t)

	// Clients 0-3 write through a until it dies; clients 4-7 write 10
	// through b, wait for the kill, and write 10 more.
	const perPhase = 10
	killAfter := 12 // writes a has answered when it is killed
	var (
		mu       sync.Mutex
		outcomes = make([][]pgWriteOutcome, clients)
		answered int
		killed   = make(chan struct{})
		killOnce sync.Once
		errs     []string
	)
	kill := func() {
		killOnce.Do(func() {
			a.cmd.Process.Signal(syscall.SIGKILL)
			close(killed)
		})
	}
	var wg sync.WaitGroup
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			hc := &http.Client{Transport: &http.Transport{}, Timeout: 2 * time.Minute}
			agent := fmt.Sprintf("agent-%d", i)
			ref := "acme/" + agent
			gen := newCorpus(uint64(100 + i))
			write := func(n int, addr string) bool {
				o, err := postWrite(hc, addr, tokens[i], agent, ref, fmt.Sprintf("note-%02d", n), gen.sentence())
				mu.Lock()
				defer mu.Unlock()
				outcomes[i] = append(outcomes[i], o)
				if err != nil && !o.failed {
					errs = append(errs, fmt.Sprintf("%s %s: %v", agent, o.key, err))
				}
				return err == nil
			}
			if i < clients/2 {
				for n := 0; n < 2*perPhase; n++ {
					if !write(n, a.addr) {
						return // a is gone
					}
					mu.Lock()
					answered++
					due := answered >= killAfter
					mu.Unlock()
					if due {
						kill()
					}
				}
				return
			}
			for n := 0; n < perPhase; n++ {
				if !write(n, b.addr) {
					return
				}
			}
			<-killed
			for n := perPhase; n < 2*perPhase; n++ {
				if !write(n, b.addr) {
					return
				}
			}
		}(i)
	}
	wg.Wait()
	kill() // a no-op unless a answered fewer writes than killAfter
	if <-a.done; a.err == nil {
		t.Fatal("the killed serve exited cleanly")
	}
	if len(errs) > 0 {
		t.Fatalf("writes answered with errors: %v\nstderr of b: %s", errs, b.stderr.String())
	}

	// Every survivor write was answered, all committed.
	for i := clients / 2; i < clients; i++ {
		if len(outcomes[i]) != 2*perPhase {
			t.Fatalf("client %d got %d answers from the survivor, want %d", i, len(outcomes[i]), 2*perPhase)
		}
	}

	// The log: the version each write created, by client.
	versions := map[string]int{} // version id -> entries that created it
	perRef := map[string]int{}   // memoryRef -> versions created
	for _, line := range strings.Split(strings.TrimSpace(c.ok("", "audit", "export")), "\n") {
		var x struct {
			Entry struct {
				Op        string `json:"op"`
				MemoryRef string `json:"memory_ref"`
				VersionID string `json:"version_id"`
			} `json:"entry"`
		}
		if err := json.Unmarshal([]byte(line), &x); err != nil {
			t.Fatalf("audit export line %q: %v", line, err)
		}
		switch x.Entry.Op {
		case "INSERT", "UPDATE", "MERGE", "STAGE":
			versions[x.Entry.VersionID]++
			perRef[x.Entry.MemoryRef]++
		}
	}
	acked, failed := 0, 0
	for i, os := range outcomes {
		ref := fmt.Sprintf("acme/agent-%d", i)
		ackedHere, failedHere := 0, 0
		for _, o := range os {
			switch {
			case o.failed:
				failedHere++
			case o.status == "COMMITTED":
				ackedHere++
				if versions[o.versionID] != 1 {
					t.Errorf("%s %s: acknowledged version %s is on the log %d times", ref, o.key, o.versionID, versions[o.versionID])
				}
			default:
				t.Errorf("%s %s: %s (every write of this test is on the auto-approve path)", ref, o.key, o.status)
			}
		}
		// A write the killed process never answered is on the log at most
		// once; nothing else is.
		if perRef[ref] < ackedHere || perRef[ref] > ackedHere+failedHere {
			t.Errorf("%s: %d versions on the log, %d acknowledged and %d unanswered", ref, perRef[ref], ackedHere, failedHere)
		}
		acked, failed = acked+ackedHere, failed+failedHere
	}
	if acked < killAfter+clients/2*2*perPhase {
		t.Fatalf("only %d writes acknowledged", acked)
	}
	t.Logf("%d writes acknowledged, %d unanswered when the process was killed", acked, failed)

	// The log and every served table verify by a full replay.
	out := c.ok("", "audit", "verify", "--replay", "--json")
	if !strings.Contains(out, `"ok": true`) || jsonField(out, "served_tables") != "replay" {
		t.Fatalf("audit verify --replay: %s", out)
	}

	// The survivor keeps serving: it reads what the killed process wrote
	// and takes new writes.
	hc := &http.Client{Timeout: time.Minute}
	for _, o := range outcomes[0] {
		if o.status != "COMMITTED" {
			continue
		}
		req, _ := http.NewRequest(http.MethodGet, "http://"+b.addr+"/v1/memories/"+o.key+"?memory_ref=acme/agent-0", nil)
		req.Header.Set("Authorization", "Bearer "+tokens[0])
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var got struct {
			Entry struct{ ID, Content string } `json:"entry"`
		}
		_ = json.Unmarshal(body, &got)
		if resp.StatusCode != 200 || got.Entry.ID != o.key || got.Entry.Content != o.text {
			t.Fatalf("the survivor reading %s written through the killed process: %d %s", o.key, resp.StatusCode, body)
		}
		break
	}
	if o, err := postWrite(hc, b.addr, tokens[0], "agent-0", "acme/agent-0", "after-the-kill", newCorpus(7).sentence()); err != nil || o.status != "COMMITTED" {
		t.Fatalf("a write to the survivor after the kill: %+v %v", o, err)
	}
	b.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-b.done:
		if b.err != nil {
			t.Fatalf("the survivor's exit: %v\n%s", b.err, b.stderr.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("the survivor did not stop on SIGINT")
	}
	c.ok("", "audit", "verify")
}
