package writes_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
)

// pipelineCases is testdata/pipeline/cases.json: one case per outcome and
// reason code, shared with the CLI tests.
type pipelineCases struct {
	Principals []memgov.Principal `json:"principals"`
	Cases      []pipelineCase     `json:"cases"`
}

type pipelineCase struct {
	Name       string            `json:"name"`
	Policy     string            `json:"policy"`
	Setup      []json.RawMessage `json:"setup"`
	Request    json.RawMessage   `json:"request"`
	Wait       bool              `json:"wait"`
	Status     string            `json:"status"`
	Reason     string            `json:"reason"`
	Detail     string            `json:"detail"`
	Related    string            `json:"related"`
	RetryAfter bool              `json:"retry_after"`
}

func loadCases(t *testing.T) pipelineCases {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "pipeline", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c pipelineCases
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestPipelineReasonCodes(t *testing.T) {
	cs := loadCases(t)
	for _, tc := range cs.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			e := newEngine(t, tc.Policy)
			ctx := context.Background()
			for _, p := range cs.Principals {
				if _, err := e.AddPrincipal(ctx, p, "admin"); err != nil {
					t.Fatal(err)
				}
			}
			for i, s := range tc.Setup {
				if r := write(t, e, s); !r.Accepted() && r.Status != memgov.StatusDeferred {
					t.Fatalf("setup write %d: %+v", i, r)
				}
			}
			res := write(t, e, tc.Request)
			if tc.Wait && res.Status == memgov.StatusDeferred {
				var err error
				if res, err = e.Writes().WaitReview(ctx, res.ReviewID, 20*time.Millisecond); err != nil {
					t.Fatal(err)
				}
			}
			checkResult(t, tc, res.Status, res.Reason, res.Detail, res.Related, res.RetryAfter != nil)
		})
	}
}

func checkResult(t *testing.T, tc pipelineCase, status, reason, detail string, related []string, retry bool) {
	t.Helper()
	if status != tc.Status || reason != tc.Reason {
		t.Fatalf("got %s %s (%s), want %s %s", status, reason, detail, tc.Status, tc.Reason)
	}
	if tc.Detail != "" && !strings.Contains(detail, tc.Detail) {
		t.Errorf("detail %q does not mention %q", detail, tc.Detail)
	}
	if tc.Related != "" && !strings.Contains(strings.Join(related, " "), tc.Related) {
		t.Errorf("related %v does not name %s", related, tc.Related)
	}
	if tc.RetryAfter && !retry {
		t.Errorf("a deferral without retry_after")
	}
}
