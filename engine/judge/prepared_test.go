package judge

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// The cache of prepared texts stays within its bounds, and its byte count
// is the sum of the texts it holds.
func TestPrepareCacheBounded(t *testing.T) {
	for i := range preparedCacheEntries + 300 {
		prepare(fmt.Sprintf("order %d shipped to warehouse %d", i, i%7))
	}
	long := strings.Repeat("the backup runs nightly at two ", 400)
	for i := range 8 {
		prepare(fmt.Sprintf("%d %s", i, long))
	}
	c := defaultJudge.prepared
	c.Lock()
	defer c.Unlock()
	if len(c.m) > preparedCacheEntries || len(c.m) != len(c.order) {
		t.Fatalf("cache holds %d texts, queue %d, bound %d", len(c.m), len(c.order), preparedCacheEntries)
	}
	sum := 0
	for _, s := range c.order {
		if c.m[s] == nil {
			t.Fatalf("queued text %.40q is not in the cache", s)
		}
		sum += len(s)
	}
	if sum != c.bytes || c.bytes > preparedCacheBytes {
		t.Fatalf("cache counts %d bytes, holds %d, bound %d", c.bytes, sum, preparedCacheBytes)
	}
}

// Prepared texts are shared: comparing them from many goroutines gives the
// answers one goroutine gets, and leaves them as they were.
func TestPreparedShared(t *testing.T) {
	pairs := [][2]string{
		{"The DB max connections is 100", "The database maximum connections is 100"},
		{"Backups run nightly", "the backup runs every night"},
		{"re-entry is allowed", "reentry is allowed after 5pm"},
		{"The default branch is main", "The default branch is master"},
	}
	want := make([]string, len(pairs))
	for i, p := range pairs {
		want[i] = fmt.Sprintf("%v %.4f", Compare(p[0], p[1]), Similarity(p[0], p[1]))
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				for i, p := range pairs {
					if got := fmt.Sprintf("%v %.4f", Compare(p[0], p[1]), Similarity(p[0], p[1])); got != want[i] {
						errs <- fmt.Sprintf("pair %d: %s, want %s", i, got, want[i])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// Forget leaves no text behind in either cache.
func TestForget(t *testing.T) {
	text := "A man in a white shirt is sleeping on the beach."
	Similarity(text, "A man in a white shirt sleeps on the beach.")
	Contradiction(text, "The man is running on the beach.")
	if !defaultJudge.prepared.has(text) || !defaultJudge.scenes.has(text) {
		t.Fatal("a compared text is not cached")
	}
	// Another judge's caches are its own: its Forget leaves the default's.
	other := New(nil)
	other.Similarity(text, "A man in a white shirt sleeps on the beach.")
	other.Contradiction(text, "The man is running on the beach.")
	if !other.cached(text) {
		t.Fatal("a text another judge compared is not in its cache")
	}
	other.Forget()
	if other.cached(text) || !defaultJudge.cached(text) {
		t.Fatal("a judge's Forget did not empty its own caches alone")
	}
	Forget()
	if defaultJudge.cached(text) {
		t.Fatal("Forget left a text in a cache")
	}
	if Similarity(text, text) != 1 {
		t.Fatal("comparison after Forget")
	}
}
