package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var retrievalIDRE = regexp.MustCompile(`retrieval[_ "]*(?:id)?[": ]*([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})`)

// retrieval runs a search and returns the id of the retrieval it recorded
// (printed with the hits, or on stderr).
func (c *cli) retrieval(ref, q string) string {
	c.t.Helper()
	out, errOut, code := c.run("", "search", ref, q)
	m := retrievalIDRE.FindStringSubmatch(out + errOut)
	if code != 0 || m == nil {
		c.t.Fatalf("search %q: exit %d, no retrieval id in %s%s", q, code, out, errOut)
	}
	return m[1]
}

// TestCLIFeedbackMeasuresMCIAndMIER: memgov feedback takes task outcomes for
// retrievals and for tasks run without memory; memgov metrics then reports
// MCI and MIER as measured, and before that names them unmeasured with what
// would measure them.
func TestCLIFeedbackMeasuresMCIAndMIER(t *testing.T) {
	c := newCLI(t)
	c.setup()
	const ref = "acme/billing-agent"
	for _, w := range [][2]string{{"customer-7/tz", "Customer 7 is in the Europe/Berlin time zone."}, {"customer-7/channel", "Customer 7 prefers email follow-up."}} {
		if r := c.write(writeReq("billing-agent", ref, w[0], w[1])); r.Status != "COMMITTED" {
			t.Fatalf("write: %+v", r)
		}
	}
	type metrics struct {
		MCI        *float64          `json:"memory_correctness_impact"`
		MIER       *float64          `json:"memory_induced_error_rate"`
		Measured   []string          `json:"measured"`
		Unmeasured []string          `json:"unmeasured"`
		Why        map[string]string `json:"unmeasured_why"`
	}
	read := func() metrics {
		t.Helper()
		var m metrics
		if err := json.Unmarshal([]byte(c.ok("", "metrics", "--json", "--revalidate", "0")), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	if m := read(); m.MCI != nil || m.MIER != nil || !strings.Contains(m.Why["correctness_impact"], "memgov feedback") || !strings.Contains(strings.Join(m.Unmeasured, ","), "induced_errors") {
		t.Fatalf("before feedback: %+v", m)
	}
	if out := c.ok("", "metrics", "--revalidate", "0"); !strings.Contains(out, "unmeasured: correctness_impact") || !strings.Contains(out, "--ablated") {
		t.Fatalf("metrics does not say what is unmeasured and why:\n%s", out)
	}
	ok1 := c.retrieval(ref, "time zone")
	var res struct {
		ID, Outcome string
		Used        int
	}
	if err := json.Unmarshal([]byte(c.ok("", "feedback", ok1, "--outcome", "success", "--used", "customer-7/tz", "--by", "billing-agent", "--json")), &res); err != nil ||
		res.ID != ok1 || res.Outcome != "success" || res.Used != 1 {
		t.Fatalf("feedback --json: %+v %v", res, err)
	}
	bad := c.retrieval(ref, "customer 7 channel")
	if out := c.ok("", "feedback", bad, "--outcome", "failure", "--memory-caused", "--note", "the channel was stale"); !strings.Contains(out, "caused by memory") {
		t.Fatalf("feedback failure: %s", out)
	}
	c.ok("", "feedback", "--ablated", "--outcome", "failure")
	c.ok("", "feedback", "--ablated", "--outcome", "success")
	m := read()
	// MCI = 1/2 - 1/2 = 0; MIER = 1 memory-caused failure of 4 tasks.
	if m.MCI == nil || *m.MCI != 0 || m.MIER == nil || *m.MIER != 0.25 || strings.Contains(strings.Join(m.Unmeasured, ","), "correctness_impact") ||
		!strings.Contains(strings.Join(m.Measured, ","), "induced_errors") {
		t.Fatalf("after feedback: %+v", m)
	}
	if out := c.ok("", "metrics", "--revalidate", "0"); !strings.Contains(out, "MCI") || !strings.Contains(out, "MIER") {
		t.Fatalf("metrics table: %s", out)
	}
	// Usage errors exit 2 with what to do; an unknown retrieval fails.
	for _, args := range [][]string{{"feedback"}, {"feedback", ok1, "--outcome", "great"}, {"feedback", "--ablated", ok1, "--outcome", "success"},
		{"feedback", ok1, "--outcome", "success", "--memory-caused"}, {"feedback", "--ablated"}, {"feedback", ok1}} {
		if _, errOut, code := c.run("", args...); code != exitUsage || errOut == "" {
			t.Errorf("memgov %s: exit %d %q, want %d", strings.Join(args, " "), code, errOut, exitUsage)
		}
	}
	if _, _, code := c.run("", "feedback", "0199aaaa-0000-7000-8000-000000000000", "--outcome", "success"); code == 0 {
		t.Error("feedback on an unknown retrieval succeeded")
	}
	if out := c.ok("", "feedback", "--help"); !strings.Contains(out, "Example") && !strings.Contains(out, "Examples") {
		t.Errorf("feedback --help: %s", out)
	}
}

// TestCLIProposalCreateRedactsWithSecretsFile: proposal create takes
// --secrets-file and --run like write; the run's secret leaves no trace in
// the title, rationale, artifact or source run ids.
func TestCLIProposalCreateRedactsWithSecretsFile(t *testing.T) {
	const secret = "ghp_0123456789abcdefSECRET"
	c := newCLI(t)
	c.setup()
	dir := t.TempDir()
	art, secrets := filepath.Join(dir, "art.json"), filepath.Join(dir, "secrets.json")
	if err := os.WriteFile(art, []byte(`{"name":"refund","token":"`+secret+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(secrets, []byte(`{"gh":"`+secret+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out := c.ok("", "proposal", "create", "--kind", "prompt-template", "--file", art, "--by", "support-bot", "--run", "r9",
		"--secrets-file", secrets, "--title", "uses "+secret, "--rationale", "seen in r9 with "+secret, "--source-run", "r9", "--source-run", "r9-"+secret, "--json")
	if strings.Contains(out, secret) || strings.Count(out, "[REDACTED:gh]") < 4 {
		t.Fatalf("proposal create kept the secret: %s", out)
	}
	if list := c.ok("", "proposal", "list", "--json"); strings.Contains(list, secret) {
		t.Fatalf("proposal list shows the secret: %s", list)
	}
}
