package memgov

import (
	"context"
	"encoding/json"
	"time"
)

// DeadLetter is a webhook notification its receiver did not take after
// every attempt: kept, not lost, for a person to see and replay by hand.
// Body is the notification as it was to be delivered (identifiers only,
// never memory content).
type DeadLetter struct {
	ID        int64           `json:"id"`
	EventID   int64           `json:"event_id"`
	EventType string          `json:"event_type"`
	URL       string          `json:"url"`
	Attempts  int             `json:"attempts"`
	Error     string          `json:"error"`
	Body      json.RawMessage `json:"body"`
	At        time.Time       `json:"at"`
}

// DeadLetterQuery selects dead letters: those with an id greater than
// AfterID, of EventType (when set), at most Limit (0: 1000).
type DeadLetterQuery struct {
	AfterID   int64
	EventType string
	Limit     int
}

// DeadLetterReader reads the webhook dead letters.
type DeadLetterReader interface {
	// DeadLetters returns the dead letters q selects, by id.
	DeadLetters(ctx context.Context, q DeadLetterQuery) ([]DeadLetter, error)
}

// DeadLetterWriter keeps webhook dead letters. They are not log entries.
type DeadLetterWriter interface {
	// AddDeadLetter stores d (its ID is assigned, At kept as given, to the
	// millisecond) and returns its id.
	AddDeadLetter(ctx context.Context, d DeadLetter) (int64, error)
}
