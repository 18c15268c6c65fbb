//go:build unix

package door

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memgov/memgov"
)

// nonblocking reports whether f's descriptor is in non-blocking mode (read
// without f.Fd, which would put it into blocking mode).
func nonblocking(t *testing.T, f *os.File) bool {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var fl int
	if err := rc.Control(func(fd uintptr) { fl, err = fcntl(int(fd), syscall.F_GETFL, 0) }); err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return fl&syscall.O_NONBLOCK != 0
}

// blockingPipe is a pipe in blocking mode, as agent hosts hand their MCP
// servers (os.Pipe's ends are non-blocking).
func blockingPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		t.Fatal(err)
	}
	r, w = os.NewFile(uintptr(p[0]), "r"), os.NewFile(uintptr(p[1]), "w")
	t.Cleanup(func() { r.Close(); w.Close() })
	if nonblocking(t, r) || nonblocking(t, w) {
		t.Fatal("syscall.Pipe gave non-blocking ends: the test cannot tell a restored mode")
	}
	return r, w
}

// Over pipes, as an agent host starts `memgov mcp`, the stdio server answers
// the official MCP client's calls, and when the session ends it leaves both
// descriptors in the blocking mode it found them in.
func TestMCPStdioOverPipesLeavesThemBlocking(t *testing.T) {
	e := newEnv(t, "", Config{})
	inR, inW := blockingPipe(t)
	outR, outW := blockingPipe(t)
	p, err := e.eng.Authenticate(context.Background(), e.tokens["planner"])
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() {
		served <- ServeStdio(context.Background(), Config{Engine: e.eng}, e.tokens["planner"], p, inR, outW)
	}()
	c := mcp.NewClient(&mcp.Implementation{Name: "door-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "add_memory",
		Arguments: map[string]any{"memory_ref": "acme/planner", "text": "The Q4 plan ships on Friday."}})
	if err != nil || res.IsError {
		t.Fatalf("add_memory over pipes: %v %+v", err, res)
	}
	if st, _ := res.StructuredContent.(map[string]any)["status"].(string); st != string(memgov.StatusCommitted) {
		t.Fatalf("add_memory over pipes answered %v, want COMMITTED", res.StructuredContent)
	}
	if !nonblocking(t, inR) || !nonblocking(t, outW) {
		t.Errorf("during the session, stdin non-blocking %v, stdout non-blocking %v: want both polled", nonblocking(t, inR), nonblocking(t, outW))
	}
	inW.Close() // the host closes the server's input
	if err := <-served; err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	cs.Close()
	if nonblocking(t, inR) || nonblocking(t, outW) {
		t.Errorf("after the session, stdin non-blocking %v, stdout non-blocking %v: want both blocking again", nonblocking(t, inR), nonblocking(t, outW))
	}
}

// A regular file is read as it is: the poller cannot wait on one.
func TestPollableTakesOnlyPipesAndSockets(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "in"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, _, ok := pollable(f, "stdin"); ok {
		t.Error("a regular file was taken for polling")
	}
	if _, _, ok := pollable(struct{ *os.File }{f}, "stdin"); ok {
		t.Error("a reader that is not an *os.File was taken for polling")
	}
	r, _ := blockingPipe(t)
	pf, done, ok := pollable(r, "stdin")
	if !ok {
		t.Fatal("a pipe was not taken for polling")
	}
	if !nonblocking(t, r) {
		t.Error("the polled pipe's descriptor is still blocking")
	}
	if !nonblocking(t, pf) {
		t.Error("the polled copy is blocking")
	}
	done()
	if nonblocking(t, r) {
		t.Error("done left the pipe non-blocking")
	}
	if _, _, ok := pollable(pf, "stdin"); ok {
		t.Error("a closed file was taken for polling")
	}
	nb, _ := blockingPipe(t)
	if err := syscall.SetNonblock(int(nb.Fd()), true); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := pollable(nb, "stdin"); ok {
		t.Error("a pipe already non-blocking was taken again")
	}
}
