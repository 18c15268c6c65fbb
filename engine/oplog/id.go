package oplog

import "github.com/google/uuid"

// NewID returns a new identifier for an item or a version: a UUID v7 string,
// so identifiers sort by the time they were made.
func NewID() string {
	id, err := uuid.NewV7()
	if err != nil {
		// NewV7 fails only when the system's random source fails.
		return uuid.NewString()
	}
	return id.String()
}
