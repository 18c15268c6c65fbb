package door

import (
	"net/http"
	"strings"
	"testing"

	"github.com/memgov/memgov"
)

// A refused write names what lifts the refusal as a code (next_action)
// beside a detail in memgov's words; the door names no command of the CLI.
func TestWriteAnswerNamesTheNextAction(t *testing.T) {
	e := newEnv(t, "", Config{})
	req := writeReq("acme/bot", "deploy-window", "The deploy window is Tuesday 10:00 UTC.")
	req["fencing_token"] = 4
	code, res := e.do("bot", "POST", "/v1/memories", req)
	if code == http.StatusOK || str(res, "status") != memgov.StatusRejected || str(res, "reason") != "STALE_FENCING_TOKEN" ||
		str(res, "next_action") != string(memgov.NextAcquireLease) {
		t.Fatalf("a write with a token of no lease: %d %v", code, res)
	}
	if d := str(res, "detail"); !strings.Contains(d, "acquire the lease first") || strings.Contains(d, "memgov ") || strings.Contains(d, "--") {
		t.Errorf("detail %q: want the action in memgov's words, no command", d)
	}
}
