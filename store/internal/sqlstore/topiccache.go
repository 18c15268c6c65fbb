package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// A topic query reads, for each of its words, the word's newest postings in
// the write's scope (rankPostings). Consecutive writes to one memory share
// most of their words, and between two of them a scope gains a row or two,
// so the store keeps each word's postings as it last read them and reads
// only the rows added since: the rows of a scope take its rowids one after
// the other, and a row's rowid is the scope's highest plus one when it is
// written, by the one writer SQLite has at a time.
//
// Like the band index (bands.go) it is a cache of committed rows, never a
// source of truth: every answer is what the read of the snapshot asking
// would return, and a rowid it names is resolved in that snapshot
// (Dialect.TopicRows). A rowid is reused only after the row holding it is
// deleted, which an erasure does (eraseText) and a rebuild does to every
// row: the cache starts afresh on a new erasure, seen in the snapshot here
// or in another process, after a rebuild or a rollback in this process, and
// when it grows past its bounds.
type TopicCache struct {
	mu    sync.Mutex
	lists map[topicKey]topicPostings
	held  int // postings held over all lists
	// gen counts the times the cache started afresh: a list read before
	// one is not kept after it.
	gen     uint64
	erasure int64 // the highest erasure LSN when the cache started
	started bool
}

type topicKey struct {
	lo   int64 // the scope's lowest rowid
	word string
}

// topicPostings is one word's postings in one scope, newest first.
type topicPostings struct {
	ids []int64 // never changed once stored: a new read stores a new slice
	// upto is the highest rowid of the scope when the postings were read:
	// ids are the newest of the word's postings at or below it.
	upto int64
	// complete: ids are every posting at or below upto.
	complete bool
}

const (
	// topicCacheSlack is how many postings a list keeps beyond those a
	// query asks for, so that a snapshot a few writes older than the
	// list is still answered from it.
	topicCacheSlack = 64
	// Past this many postings (8 bytes each) or lists (a word that
	// occurs once still costs a list), the cache forgets lists until it
	// holds a quarter less (shed): a store whose scope has more words
	// than the cache holds keeps most of them warm, where starting
	// afresh made every word cold at once. At 100,000 items (memgov
	// bench write) a thousand governed writes read 3.48 million postings
	// with 2 million and a fresh start, 2.34 million with 4 million and
	// shedding, as many as with 8 million: the rest are each word's
	// first read.
	topicCacheMaxPostings = 1 << 22
	topicCacheMaxLists    = 1 << 16
)

// NewTopicCache is an empty topic cache.
func NewTopicCache() *TopicCache { return &TopicCache{lists: map[topicKey]topicPostings{}} }

// Reset forgets every list; the next query reads afresh.
func (c *TopicCache) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clear()
	c.started = false
}

// clear forgets every list. c.mu is held.
func (c *TopicCache) clear() {
	c.lists, c.held = map[topicKey]topicPostings{}, 0
	c.gen++
}

// shed forgets lists, in the map's order, until the cache holds at most
// three quarters of its bounds. The lists kept stay true: each is a
// word's postings as a snapshot read them, whatever else is forgotten.
// c.mu is held.
func (c *TopicCache) shed() {
	for key, l := range c.lists {
		if c.held <= topicCacheMaxPostings/4*3 && len(c.lists) <= topicCacheMaxLists/4*3 {
			break
		}
		delete(c.lists, key)
		c.held -= len(l.ids)
	}
}

// postings returns the rowids of the newest n texts holding the word w (as
// Dialect.MatchWord writes it) among the rows lo to last of a scope, newest
// first: what Dialect.TopicPostings returns in the snapshot q reads, whose
// highest rowid in the scope is last and highest erasure LSN erasure. A nil
// cache reads every time.
func (c *TopicCache) postings(ctx context.Context, q querier, lo, last, erasure int64, w string, n int) ([]int64, error) {
	if c == nil {
		return readPostings(ctx, q, w, lo, last, n)
	}
	key := topicKey{lo, w}
	c.mu.Lock()
	switch {
	case !c.started:
		c.erasure, c.started = erasure, true
	case erasure > c.erasure:
		c.clear()
		c.erasure = erasure
	case erasure < c.erasure:
		// A snapshot from before an erasure the cache has seen: it may
		// hold rows the cache no longer knows.
		c.mu.Unlock()
		return readPostings(ctx, q, w, lo, last, n)
	}
	had, ok := c.lists[key]
	gen := c.gen
	c.mu.Unlock()

	var got topicPostings
	switch {
	case ok && last <= had.upto:
		// A snapshot no newer than the list: its postings are the
		// list's at or below last, if the list reaches n of them.
		ids := had.ids
		for len(ids) > 0 && ids[0] > last {
			ids = ids[1:]
		}
		if len(ids) >= n || had.complete {
			return ids[:min(n, len(ids))], nil
		}
		return readPostings(ctx, q, w, lo, last, n)
	case ok:
		// The rows added since the list was read.
		k := n + topicCacheSlack
		added, err := readPostings(ctx, q, w, had.upto+1, last, k)
		if err != nil {
			return nil, err
		}
		if len(added) == k {
			got = topicPostings{ids: added, upto: last}
		} else {
			ids := make([]int64, 0, min(k, len(added)+len(had.ids)))
			ids = append(ids, added...)
			ids = append(ids, had.ids[:min(len(had.ids), k-len(added))]...)
			got = topicPostings{ids: ids, upto: last, complete: had.complete && len(added)+len(had.ids) <= k}
		}
	default:
		k := n + topicCacheSlack
		ids, err := readPostings(ctx, q, w, lo, last, k)
		if err != nil {
			return nil, err
		}
		got = topicPostings{ids: ids, upto: last, complete: len(ids) < k}
	}

	c.mu.Lock()
	if c.gen == gen {
		if cur, ok := c.lists[key]; !ok || cur.upto < got.upto {
			c.held += len(got.ids) - len(cur.ids)
			c.lists[key] = got
			if c.held > topicCacheMaxPostings || len(c.lists) > topicCacheMaxLists {
				c.shed()
			}
		}
	}
	c.mu.Unlock()
	return got.ids[:min(n, len(got.ids))], nil
}

// readPostings reads the rowids of the newest n texts holding w among the
// rows lo to last, newest first.
func readPostings(ctx context.Context, q querier, w string, lo, last int64, n int) ([]int64, error) {
	if last < lo {
		return nil, nil
	}
	rows, err := queryDrained(ctx, q, q.dialect().TopicPostings, w, lo, last, n)
	if err != nil {
		return nil, fmt.Errorf("read the postings of a topic query: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		ids = append(ids, id)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, fmt.Errorf("read the postings of a topic query: %w", err)
	}
	return ids, nil
}
