package sqlstore

import (
	"fmt"
	"testing"
)

// TestTopicCacheShed checks that a cache past its bounds forgets lists
// until it holds three quarters of them, keeps its count of postings
// true, and keeps the lists it does not forget as they were.
func TestTopicCacheShed(t *testing.T) {
	c := NewTopicCache()
	c.started = true
	per := topicCacheMaxPostings / 1000
	for i := 0; c.held <= topicCacheMaxPostings; i++ {
		ids := make([]int64, per)
		for k := range ids {
			ids[k] = int64(i*per + k)
		}
		c.lists[topicKey{lo: 1, word: fmt.Sprint("w", i)}] = topicPostings{ids: ids, upto: int64(i*per + per)}
		c.held += per
	}
	gen := c.gen
	c.shed()
	if c.held > topicCacheMaxPostings/4*3 {
		t.Fatalf("held %d postings after shedding, want at most %d", c.held, topicCacheMaxPostings/4*3)
	}
	if len(c.lists) == 0 {
		t.Fatal("shedding forgot every list")
	}
	if c.gen != gen {
		t.Errorf("shedding started the cache afresh (gen %d, was %d): the lists kept are still true", c.gen, gen)
	}
	sum := 0
	for key, l := range c.lists {
		sum += len(l.ids)
		var i int
		fmt.Sscanf(key.word, "w%d", &i)
		if l.ids[0] != int64(i*per) || len(l.ids) != per {
			t.Errorf("list %s changed by shedding", key.word)
		}
	}
	if sum != c.held {
		t.Errorf("held counts %d postings, the lists hold %d", c.held, sum)
	}
}
