package door

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
)

// Webhooks: people learn of what needs them — a SYNC_BLOCK write holding an
// agent, a drift episode, an escalation — from the event outbox. Deliveries
// are signed, retried with back-off, and carry identifiers only, never
// memory content.

// Signature headers of a delivery. The signature is
// "v1=" + hex(HMAC-SHA256(secret, timestamp + "." + body)).
const (
	HeaderTimestamp = "Memgov-Timestamp"
	HeaderSignature = "Memgov-Signature"
	HeaderEvent     = "Memgov-Event"
)

// Sign returns the signature header value of a delivery.
func Sign(secret []byte, timestamp string, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(timestamp))
	m.Write([]byte{'.'})
	m.Write(body)
	return "v1=" + hex.EncodeToString(m.Sum(nil))
}

// VerifySignature checks a delivery's signature and that its timestamp is
// within tolerance of now (replay protection for receivers).
func VerifySignature(secret []byte, timestamp, signature string, body []byte, now time.Time, tolerance time.Duration) error {
	sec, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return errors.New("bad timestamp")
	}
	if d := now.Sub(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
		return errors.New("timestamp outside tolerance")
	}
	if !hmac.Equal([]byte(Sign(secret, timestamp, body)), []byte(signature)) {
		return errors.New("signature mismatch")
	}
	return nil
}

// Notification is the body of a delivery.
type Notification struct {
	ID        int64             `json:"id"` // the outbox event id: receivers deduplicate by it
	Type      string            `json:"type"`
	LSN       int64             `json:"lsn"`
	At        time.Time         `json:"at"`
	MemoryRef string            `json:"memory_ref,omitempty"`
	Data      map[string]string `json:"data"`
}

// notified are the outbox events sent, and the identifier fields of their
// data each may carry (never content, notes or details).
var notified = map[string][]string{
	"review.created":        {"reviewId", "tier", "agentId"},
	"review.escalated":      {"reviewId", "by"},
	"MEMORY_DRIFT_DETECTED": {"driftId", "baselineId", "cause", "policy"},
}

// notification returns the delivery of an event, or false when the event is
// not one people are notified of (only SYNC_BLOCK reviews are: async ones
// wait in the queue). Stored event data that is not valid JSON is an error
// naming the event.
func notification(ev memgov.Event) (Notification, bool, error) {
	fields, ok := notified[ev.Type]
	if !ok {
		return Notification{}, false, nil
	}
	var raw map[string]any
	if err := memgov.DecodeStored(fmt.Sprintf("the data of event %d (log entry %d)", ev.ID, ev.LSN), ev.Data, &raw); err != nil {
		return Notification{}, false, err
	}
	if ev.Type == "review.created" && raw["tier"] != memgov.TierSync {
		return Notification{}, false, nil
	}
	n := Notification{ID: ev.ID, Type: ev.Type, LSN: ev.LSN, At: ev.At, MemoryRef: ev.MemoryRef, Data: map[string]string{}}
	for _, f := range fields {
		if v, ok := raw[f].(string); ok {
			n.Data[f] = v
		}
	}
	return n, true, nil
}

// Webhook is one receiver.
type Webhook struct {
	URL    string
	Secret []byte
}

// Dispatcher sends the outbox's notifications to webhooks.
type Dispatcher struct {
	Engine   *engine.Engine
	Hooks    []Webhook
	Client   *http.Client // default: 10s time-out
	Logger   *slog.Logger
	Now      func() time.Time
	Attempts int           // per delivery (default 6)
	Backoff  time.Duration // first retry delay, doubled each time (default 1s)
	// Sleep waits between attempts (default: a timer honouring ctx); tests
	// record the back-off instead of waiting.
	Sleep func(ctx context.Context, d time.Duration) error
	// CursorFile keeps the last event id handled across restarts; without
	// it (or when it does not exist) dispatching starts at the outbox's end.
	CursorFile string
	// Version is memgov's version, named in the User-Agent (default "dev").
	Version string

	cursor int64
	ready  bool
}

func (d *Dispatcher) init(ctx context.Context) error {
	if d.ready {
		return nil
	}
	if d.Client == nil {
		d.Client = &http.Client{Timeout: 10 * time.Second}
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Attempts <= 0 {
		d.Attempts = 6
	}
	if d.Backoff <= 0 {
		d.Backoff = time.Second
	}
	if d.Version == "" {
		d.Version = "dev"
	}
	if d.Sleep == nil {
		d.Sleep = func(ctx context.Context, t time.Duration) error {
			timer := time.NewTimer(t)
			defer timer.Stop()
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-timer.C:
				return nil
			}
		}
	}
	if d.CursorFile != "" {
		if b, err := os.ReadFile(d.CursorFile); err == nil {
			c, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
			if err != nil {
				return fmt.Errorf("webhook cursor %s: %w", d.CursorFile, err)
			}
			d.cursor, d.ready = c, true
			return nil
		}
	}
	// Start at the end of the outbox: history is not replayed to receivers.
	for {
		evs, err := d.Engine.Host().Events(ctx, memgov.Owner, memgov.EventQuery{AfterID: d.cursor, Limit: 1000})
		if err != nil {
			return err
		}
		if len(evs) == 0 {
			break
		}
		d.cursor = evs[len(evs)-1].ID
	}
	d.ready = true
	return d.save()
}

func (d *Dispatcher) save() error {
	if d.CursorFile == "" {
		return nil
	}
	return os.WriteFile(d.CursorFile, []byte(strconv.FormatInt(d.cursor, 10)+"\n"), 0o600)
}

// Start fixes the dispatcher's starting point (the end of the outbox, or
// its cursor file). Run and Tick call it; call it first to be sure events
// after this moment are delivered.
func (d *Dispatcher) Start(ctx context.Context) error { return d.init(ctx) }

// Tick delivers every notification after the cursor, in order, and returns
// how many it delivered. A notification a receiver still refuses after every
// attempt (or refuses for good, with a 4xx) is kept as a dead letter
// (memgov webhook dead-letters) and logged, and the dispatcher goes on, so
// one dead receiver cannot hold the others back and no event is lost.
func (d *Dispatcher) Tick(ctx context.Context) (int, error) {
	if err := d.init(ctx); err != nil {
		return 0, err
	}
	sent := 0
	for {
		evs, err := d.Engine.Host().Events(ctx, memgov.Owner, memgov.EventQuery{AfterID: d.cursor, Limit: 200})
		if err != nil {
			return sent, err
		}
		if len(evs) == 0 {
			return sent, nil
		}
		for _, ev := range evs {
			n, ok, err := notification(ev)
			if err != nil {
				// A corrupt event cannot be delivered as it was emitted; it
				// is reported, naming it, and the dispatcher goes on: the
				// log still holds the entry (memgov audit verify).
				d.Logger.Error("webhook: event not delivered", "event", ev.ID, "type", ev.Type, "err", err)
			}
			if ok {
				for _, h := range d.Hooks {
					attempts, err := d.deliver(ctx, h, n)
					if err != nil {
						if ctx.Err() != nil {
							return sent, ctx.Err()
						}
						d.Logger.Error("webhook delivery failed; kept as a dead letter", "url", h.URL, "event", n.ID, "type", n.Type, "attempts", attempts, "err", err)
						if err := d.keep(ctx, h, n, attempts, err); err != nil {
							return sent, err
						}
						continue
					}
					sent++
				}
			}
			d.cursor = ev.ID
			if err := d.save(); err != nil {
				return sent, err
			}
		}
	}
}

// Run ticks every interval until ctx is done.
func (d *Dispatcher) Run(ctx context.Context, interval time.Duration) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := d.Tick(ctx); err != nil && ctx.Err() == nil {
			d.Logger.Error("webhooks", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// keep stores a notification that failed every attempt as a dead letter.
func (d *Dispatcher) keep(ctx context.Context, h Webhook, n Notification, attempts int, cause error) error {
	body, err := json.Marshal(n)
	if err != nil {
		return err
	}
	_, err = d.Engine.AddDeadLetter(ctx, memgov.DeadLetter{EventID: n.ID, EventType: n.Type, URL: h.URL,
		Attempts: attempts, Error: cause.Error(), Body: body, At: d.Now()})
	return err
}

// deliver posts n to h, retrying with exponential back-off on a network
// error or a 5xx or 429 answer; a 4xx answer is final. It returns the
// number of attempts made.
func (d *Dispatcher) deliver(ctx context.Context, h Webhook, n Notification) (int, error) {
	body, err := json.Marshal(n)
	if err != nil {
		return 0, err
	}
	wait := d.Backoff
	var last error
	for attempt := 1; attempt <= d.Attempts; attempt++ {
		if attempt > 1 {
			if err := d.Sleep(ctx, wait); err != nil {
				return attempt - 1, err
			}
			wait *= 2
		}
		ts := strconv.FormatInt(d.Now().Unix(), 10)
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, bytes.NewReader(body))
		if err != nil {
			return attempt, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("User-Agent", "memgov-webhook/"+d.Version)
		req.Header.Set(HeaderTimestamp, ts)
		req.Header.Set(HeaderSignature, Sign(h.Secret, ts, body))
		req.Header.Set(HeaderEvent, n.Type)
		resp, err := d.Client.Do(req)
		if err != nil {
			last = err
			continue
		}
		resp.Body.Close()
		switch {
		case resp.StatusCode < 300:
			return attempt, nil
		case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
			last = fmt.Errorf("receiver answered %s", resp.Status)
		default:
			return attempt, fmt.Errorf("receiver answered %s; not retried", resp.Status)
		}
	}
	return d.Attempts, fmt.Errorf("after %d attempts: %w", d.Attempts, last)
}
