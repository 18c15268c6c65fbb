package engine

// Entry is the host contract's MemoryEntry: these properties, times in RFC
// 3339 UTC. Its id is the item's key, its content the version's text. A
// recorded read (MemoryAdapter.ListRead, GetRead, SearchRead) adds two
// extensions a host may ignore: the retrieval's id, for usage feedback, and
// the entry's read note (trust level of its source, stale warning,
// needs-verification flag).
type Entry struct {
	ID          string    `json:"id"`
	Content     string    `json:"content"`
	Tags        []string  `json:"tags"`
	CreatedAt   string    `json:"createdAt"`
	ExpiresAt   string    `json:"expiresAt,omitempty"`
	RetrievalID string    `json:"retrieval_id,omitempty"`
	Read        *ReadNote `json:"read,omitempty"`
}

// EntryOf projects a version onto the MemoryEntry shape.
func EntryOf(v Version) Entry {
	e := Entry{ID: v.Key, Content: v.Text(), Tags: v.Tags, CreatedAt: v.CreatedAt.UTC().Format(TimeFormat)}
	if e.Tags == nil {
		e.Tags = []string{}
	}
	if v.ExpiresAt != nil {
		e.ExpiresAt = v.ExpiresAt.UTC().Format(TimeFormat)
	}
	return e
}

// Entries projects versions onto MemoryEntries; never nil.
func Entries(vs []Version) []Entry {
	out := make([]Entry, 0, len(vs))
	for _, v := range vs {
		out = append(out, EntryOf(v))
	}
	return out
}
