package sqlstore

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"sync"
)

// The SimHash bands of each indexed version are stored packed, one column of
// version_features (16 bands of 4 bytes: band number << 16 | value). The
// near-duplicate lookup reads them from an in-memory index the store keeps
// per memoryRef, so a write stores one features row instead of a row per
// band, and a lookup costs no statement per band.
//
// The index is a cache of committed rows, never a source of truth: a
// candidate it names is read back from the database in the lookup's own
// transaction, so a version it still holds that the snapshot does not (an
// erased one, a replaced row, a row committed after the snapshot began) is
// no candidate. What it must never miss is a committed row. Every
// version_features row has a seq, never reused (SQLite: AUTOINCREMENT;
// PostgreSQL: an identity column whose sequence caches one value), assigned
// in commit order: SQLite has one writer at a time, and on PostgreSQL every
// write transaction of every process holds the append lock from its start to
// its commit, so no row with a lower seq can commit after a higher one is
// seen. Every lookup first absorbs the rows above the highest seq the index
// has seen, whoever wrote them (this process or another process on the same
// database). A write transaction that rolls back
// resets the index (it may have absorbed rows the rollback undid, or missed
// rows it had deleted). An erasure resets it too, here or in another process (the
// highest erasure LSN is checked on each lookup), so no band of an erased
// text stays in memory.

// bandCount is the number of SimHash bands a version has.
const bandCount = 16

// refBands is the band index of one memoryRef. The members of a band's
// bucket (the positions whose band k has one value) form a chain, newest
// first: heads[k] holds the newest position of each value, ents[p].prev[k]
// the member before p. Adding a row costs no allocation of its own, and a
// lookup walks a bucket from its newest member as far as it needs.
type refBands struct {
	seqs  []int64     // version_features.seq of each position
	ents  []bandEntry // what a lookup reads of each position, together
	full  []bool      // the position has all 16 bands
	heads [bandCount]bandHeads
}

// bandEntry is one position's band values, by band number, and the next
// older member of each of its buckets (-1: none): a lookup walking a
// bucket reads both of the same entry.
type bandEntry struct {
	sig  [bandCount]uint16
	prev [bandCount]int32
}

func newRefBands() *refBands {
	r := &refBands{}
	for k := range r.heads {
		r.heads[k].m = map[uint16]int32{}
	}
	return r
}

// denseHeads is the size at which a band's heads move from a map to an
// array of every value (256 KiB a band): past it most values occur.
const denseHeads = 4096

// bandHeads is the newest position of each value of one band: a map while
// the memoryRef is small, an array (position + 1, 0 for none) once it is
// not.
type bandHeads struct {
	m map[uint16]int32
	d []int32
}

func (h *bandHeads) get(v uint16) int32 {
	if h.d != nil {
		return h.d[v] - 1
	}
	if p, ok := h.m[v]; ok {
		return p
	}
	return -1
}

func (h *bandHeads) set(v uint16, p int32) {
	if h.d != nil {
		h.d[v] = p + 1
		return
	}
	h.m[v] = p
}

func (h *bandHeads) densify() {
	h.d = make([]int32, 1<<16)
	for v, p := range h.m {
		h.d[v] = p + 1
	}
	h.m = nil
}

// add indexes one row's packed bands under seq. A band number that repeats
// in a row (no row the store writes has one) counts once, its first value.
func (r *refBands) add(seq int64, packed []byte) {
	pos := int32(len(r.seqs))
	e := bandEntry{prev: [bandCount]int32{-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}}
	seen := 0
	for i := 0; i+4 <= len(packed); i += 4 {
		b := binary.BigEndian.Uint32(packed[i:])
		k, v := int(b>>16), uint16(b)
		if k >= bandCount || seen&(1<<k) != 0 {
			continue
		}
		e.sig[k] = v
		seen |= 1 << k
		e.prev[k] = r.heads[k].get(v)
		r.heads[k].set(v, pos)
	}
	r.seqs = append(r.seqs, seq)
	r.ents = append(r.ents, e)
	r.full = append(r.full, seen == 1<<bandCount-1)
	if len(r.seqs) == denseHeads {
		for k := range r.heads {
			r.heads[k].densify()
		}
	}
}

// grow makes room for n more positions, and a sixteenth more for the rows
// to come.
func (r *refBands) grow(n int) {
	n += n / 16
	r.seqs = slices.Grow(r.seqs, n)
	r.ents = slices.Grow(r.ents, n)
	r.full = slices.Grow(r.full, n)
}

// BandCache is the store's band index: the indexed memoryRefs and the highest
// seq and erasure LSN absorbed.
type BandCache struct {
	mu      sync.Mutex
	refs    map[string]*refBands
	last    int64 // every row of an indexed ref with seq <= last is in it
	erasure int64 // the highest erasure LSN when the index was started
	started bool
}

// NewBandCache is an empty band index.
func NewBandCache() *BandCache { return &BandCache{refs: map[string]*refBands{}} }

// Reset forgets everything; the next lookup starts afresh.
func (c *BandCache) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refs, c.last, c.erasure, c.started = map[string]*refBands{}, 0, 0, false
}

// catchUp brings the index up to the transaction's snapshot: it resets on a
// new erasure, absorbs the rows above last, and loads ref if it is not
// indexed yet. c.mu is held.
func (c *BandCache) catchUp(ctx context.Context, q querier, ref string) (*refBands, error) {
	var erasure, top int64
	if err := q.QueryRowContext(ctx, `SELECT (SELECT COALESCE(MAX(lsn), 0) FROM erasures), (SELECT COALESCE(MAX(seq), 0) FROM version_features)`).Scan(&erasure, &top); err != nil {
		return nil, fmt.Errorf("band index: %w", err)
	}
	if c.started && erasure != c.erasure {
		c.refs, c.last, c.started = map[string]*refBands{}, 0, false
	}
	if !c.started {
		c.erasure, c.last, c.started = erasure, top, true
	}
	if top > c.last && len(c.refs) > 0 {
		rows, err := queryDrained(ctx, q, `SELECT seq, memory_ref, bands FROM version_features WHERE seq > ? ORDER BY seq`, c.last)
		if err != nil {
			return nil, fmt.Errorf("band index: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var (
				seq    int64
				r      string
				packed []byte
			)
			if err := rows.Scan(&seq, &r, &packed); err != nil {
				return nil, fmt.Errorf("band index: %w", err)
			}
			if rb := c.refs[r]; rb != nil && (len(rb.seqs) == 0 || seq > rb.seqs[len(rb.seqs)-1]) {
				rb.add(seq, packed)
			}
		}
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("band index: %w", err)
		}
		rows.Close()
	}
	// An older snapshot than the last one absorbed: what it sees is in the
	// index already. A newer one: all its rows up to top now are.
	c.last = max(c.last, top)
	rb := c.refs[ref]
	if rb != nil {
		return rb, nil
	}
	rb = newRefBands()
	// The index of a large memoryRef is sized once: grown by appends, a
	// million rows would hold the old and the new arrays at once at each
	// growth, tens of megabytes of garbage at the process's peak.
	var n int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM version_features WHERE memory_ref = ?`, ref).Scan(&n); err != nil {
		return nil, fmt.Errorf("band index of %s: %w", ref, err)
	}
	rb.grow(n)
	rows, err := queryDrained(ctx, q, `SELECT seq, bands FROM version_features WHERE memory_ref = ? ORDER BY seq`, ref)
	if err != nil {
		return nil, fmt.Errorf("band index of %s: %w", ref, err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			seq    int64
			packed []byte
		)
		if err := rows.Scan(&seq, &packed); err != nil {
			return nil, fmt.Errorf("band index of %s: %w", ref, err)
		}
		rb.add(seq, packed)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("band index of %s: %w", ref, err)
	}
	// Loaded from this snapshot: rows above its top are absorbed by a later
	// catch-up, which must start no higher than that top.
	c.last = min(c.last, top)
	c.refs[ref] = rb
	return rb, nil
}

// lookup returns the seqs of ref's versions that share a band with the query:
// per band, the newest bucketLimit members whose SimHash is within maxHamming
// bits of the query's (maxHamming <= 0, or a query or a row without all 16
// bands: no bound).
func (c *BandCache) lookup(ctx context.Context, q querier, ref string, bands []uint32, maxHamming, bucketLimit int) ([]int64, error) {
	if len(bands) == 0 {
		return nil, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	rb, err := c.catchUp(ctx, q, ref)
	if err != nil {
		return nil, err
	}
	return rb.near(bands, maxHamming, bucketLimit), nil
}

// near is lookup within the index of one memoryRef.
func (rb *refBands) near(bands []uint32, maxHamming, bucketLimit int) []int64 {
	var sig [bandCount]uint16
	seen := 0
	for _, b := range bands {
		if k := int(b >> 16); k < bandCount {
			sig[k], seen = uint16(b), seen|1<<k
		}
	}
	bound := maxHamming > 0 && seen == 1<<bandCount-1
	var out []int64
	var took []int32
	for _, b := range bands {
		k := int(b >> 16)
		if k >= bandCount {
			continue
		}
		n := 0
		for p := rb.heads[k].get(uint16(b)); p >= 0 && n < bucketLimit; p = rb.ents[p].prev[k] {
			if bound && rb.full[p] && hamming(&sig, &rb.ents[p].sig) > maxHamming {
				continue
			}
			n++
			took = append(took, p)
		}
	}
	slices.Sort(took)
	took = slices.Compact(took)
	for i := len(took) - 1; i >= 0; i-- { // newest first
		out = append(out, rb.seqs[took[i]])
	}
	return out
}

func hamming(a, b *[bandCount]uint16) int {
	n := 0
	for k := range a {
		n += bits.OnesCount16(a[k] ^ b[k])
	}
	return n
}
