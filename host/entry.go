package host

import (
	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// Entry is the host contract's MemoryEntry: these properties, times in RFC
// 3339 UTC. Its id is the item's key, its content the version's text.
// SearchRead's hits carry two extensions, the retrieval's id (for usage
// feedback) and the entry's read note (trust level of its source, stale
// warning, needs-verification flag); answers move them into an envelope
// (ReadEnvelope, SearchEnvelope) so every entry they show is exactly a
// MemoryEntry.
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
func EntryOf(v memgov.Version) Entry {
	e := Entry{ID: v.Key, Content: v.Text(), Tags: v.Tags, CreatedAt: v.CreatedAt.UTC().Format(oplog.TimeFormat)}
	if e.Tags == nil {
		e.Tags = []string{}
	}
	if v.ExpiresAt != nil {
		e.ExpiresAt = v.ExpiresAt.UTC().Format(oplog.TimeFormat)
	}
	return e
}

// Entries projects versions onto MemoryEntries; never nil.
func Entries(vs []memgov.Version) []Entry {
	out := make([]Entry, 0, len(vs))
	for _, v := range vs {
		out = append(out, EntryOf(v))
	}
	return out
}

// Plain returns the entry as the contract's MemoryEntry alone, without the
// read extensions: answers carry those beside the entries, in an envelope.
func (en Entry) Plain() Entry {
	en.RetrievalID, en.Read = "", nil
	return en
}

// EntryNote is the read note of the entry id.
type EntryNote struct {
	ID string `json:"id"`
	ReadNote
}

// ReadEnvelope is a recorded list or get as the doors answer it: the
// entries exactly as MemoryEntry objects, and beside them the retrieval id
// (for memgov feedback) and each entry's read note, in the entries' order.
type ReadEnvelope struct {
	MemoryRef   string      `json:"memory_ref"`
	RetrievalID string      `json:"retrieval_id,omitempty"`
	Entries     []Entry     `json:"entries"`
	Read        []EntryNote `json:"read"`
}

// Envelope returns the retrieval's answer for ref.
func (r Retrieval) Envelope(ref string) ReadEnvelope {
	out := ReadEnvelope{MemoryRef: ref, RetrievalID: r.ID, Entries: r.Entries(), Read: make([]EntryNote, 0, len(r.Versions))}
	for i, v := range r.Versions {
		var n ReadNote
		if i < len(r.Notes) {
			n = r.Notes[i]
		}
		out.Read = append(out.Read, EntryNote{ID: v.Key, ReadNote: n})
	}
	return out
}

// NotedHit is a search hit whose entry is a plain MemoryEntry, with the
// entry's read note beside it.
type NotedHit struct {
	SearchHit
	Read *ReadNote `json:"read,omitempty"`
}

// SearchEnvelope is a recorded search as the doors answer it.
type SearchEnvelope struct {
	MemoryRef   string     `json:"memory_ref"`
	RetrievalID string     `json:"retrieval_id,omitempty"`
	Hits        []NotedHit `json:"hits"`
}

// EnvelopeSearch moves the read extensions of SearchRead's hits into the
// envelope: each hit's entry becomes a plain MemoryEntry.
func EnvelopeSearch(ref, retrievalID string, hits []SearchHit) SearchEnvelope {
	out := SearchEnvelope{MemoryRef: ref, RetrievalID: retrievalID, Hits: make([]NotedHit, 0, len(hits))}
	for _, h := range hits {
		n := h.Entry.Read
		h.Entry = h.Entry.Plain()
		out.Hits = append(out.Hits, NotedHit{SearchHit: h, Read: n})
	}
	return out
}
