package door

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StdioTransport is MCP over r and w (stdin and stdout for `memgov mcp`,
// newline-delimited JSON-RPC) that answers every request it read before it
// reports the end of its input: a host that writes a request and closes
// its end at once still gets the answer. The end of input waits for the
// answers for at most linger.
func StdioTransport(r io.Reader, w io.Writer, linger time.Duration) mcp.Transport {
	d := &draining{r: r, w: w, pending: map[string]bool{}, linger: linger}
	d.cond = sync.NewCond(&d.mu)
	return &mcp.IOTransport{Reader: readCloser{d}, Writer: writeCloser{d}}
}

// draining counts the requests read and the responses written, by id.
type draining struct {
	r      io.Reader
	w      io.Writer
	linger time.Duration

	mu      sync.Mutex
	cond    *sync.Cond
	pending map[string]bool // ids of requests read and not yet answered
	in, out []byte          // partial lines
}

type readCloser struct{ d *draining }

func (rc readCloser) Read(p []byte) (int, error) {
	d := rc.d
	n, err := d.r.Read(p)
	d.mu.Lock()
	d.in = scanLines(append(d.in, p[:n]...), func(line []byte) {
		if id, isRequest := frame(line); isRequest && id != "" {
			d.pending[id] = true
		}
	})
	d.mu.Unlock()
	if err != io.EOF {
		return n, err
	}
	if n > 0 {
		return n, nil // the end is reported at the next read, after these bytes are served
	}
	d.wait()
	return 0, io.EOF
}

func (rc readCloser) Close() error { return nil }

// wait blocks until every request read has been answered, or linger passed.
func (d *draining) wait() {
	ctx, cancel := context.WithTimeout(context.Background(), d.linger)
	defer cancel()
	stop := context.AfterFunc(ctx, func() {
		d.mu.Lock()
		d.cond.Broadcast()
		d.mu.Unlock()
	})
	defer stop()
	d.mu.Lock()
	defer d.mu.Unlock()
	for len(d.pending) > 0 && ctx.Err() == nil {
		d.cond.Wait()
	}
}

type writeCloser struct{ d *draining }

func (wc writeCloser) Write(p []byte) (int, error) {
	d := wc.d
	n, err := d.w.Write(p)
	d.mu.Lock()
	d.out = scanLines(append(d.out, p[:n]...), func(line []byte) {
		if id, isRequest := frame(line); !isRequest && id != "" {
			delete(d.pending, id)
		}
	})
	d.cond.Broadcast()
	d.mu.Unlock()
	return n, err
}

func (wc writeCloser) Close() error { return nil }

// scanLines calls fn for each complete line of b and returns the rest.
func scanLines(b []byte, fn func([]byte)) []byte {
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			if len(b) > 8<<20 { // a line this long is no frame to count
				return b[:0]
			}
			return b
		}
		if line := bytes.TrimSpace(b[:i]); len(line) > 0 {
			fn(line)
		}
		b = b[i+1:]
	}
}

// frame reads a JSON-RPC message's id (as its JSON text) and whether it is
// a request (it has a method) or a response.
func frame(line []byte) (id string, isRequest bool) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 || string(m.ID) == "null" {
		return "", m.Method != ""
	}
	return string(m.ID), m.Method != ""
}
