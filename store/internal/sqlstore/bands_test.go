package sqlstore

import (
	"encoding/binary"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// bucketsRef is the band index kept the plain way: every bucket a list of
// positions, oldest first. refBands must find what it finds.
type bucketsRef struct {
	seqs    []int64
	sigs    [][bandCount]uint16
	full    []bool
	buckets [bandCount]map[uint16][]int32
}

func (r *bucketsRef) add(seq int64, sig [bandCount]uint16, full bool) {
	pos := int32(len(r.seqs))
	for k := range bandCount {
		if r.buckets[k] == nil {
			r.buckets[k] = map[uint16][]int32{}
		}
		if full || k%2 == 0 {
			r.buckets[k][sig[k]] = append(r.buckets[k][sig[k]], pos)
		}
	}
	r.seqs, r.sigs, r.full = append(r.seqs, seq), append(r.sigs, sig), append(r.full, full)
}

func (r *bucketsRef) near(sig [bandCount]uint16, maxHamming, limit int) []int64 {
	var took []int32
	for k := range bandCount {
		bucket := r.buckets[k][sig[k]]
		n := 0
		for i := len(bucket) - 1; i >= 0 && n < limit; i-- {
			p := bucket[i]
			if maxHamming > 0 && r.full[p] && hamming(&sig, &r.sigs[p]) > maxHamming {
				continue
			}
			n++
			took = append(took, p)
		}
	}
	slices.Sort(took)
	took = slices.Compact(took)
	var out []int64
	for i := len(took) - 1; i >= 0; i-- {
		out = append(out, r.seqs[took[i]])
	}
	return out
}

// The band index finds, per band, the newest members within the Hamming
// bound, as plain buckets would, below and past the size at which its
// heads become arrays, for rows with every band and rows with some.
func TestRefBandsNear(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rows := rapid.IntRange(0, 2*denseHeads+10).Draw(t, "rows")
		values := rapid.IntRange(1, 1<<16).Draw(t, "values") // few values: big buckets
		seed := rapid.Uint64().Draw(t, "seed")
		next := func() uint16 { // a cheap deterministic stream
			seed = seed*6364136223846793005 + 1442695040888963407
			return uint16((seed >> 33) % uint64(values))
		}
		rb, ref := newRefBands(), &bucketsRef{}
		for i := range rows {
			var sig [bandCount]uint16
			for k := range sig {
				sig[k] = next()
			}
			full := i%7 != 3
			var packed []byte
			for k := range bandCount {
				if full || k%2 == 0 {
					packed = binary.BigEndian.AppendUint32(packed, uint32(k)<<16|uint32(sig[k]))
				}
			}
			rb.add(int64(10+3*i), packed)
			ref.add(int64(10+3*i), sig, full)
		}
		for range 5 {
			var sig [bandCount]uint16
			var bands []uint32
			for k := range sig {
				sig[k] = next()
				bands = append(bands, uint32(k)<<16|uint32(sig[k]))
			}
			maxHamming := rapid.SampledFrom([]int{0, 60, 100, 140}).Draw(t, "maxHamming")
			limit := rapid.IntRange(1, 30).Draw(t, "limit")
			got, want := rb.near(bands, maxHamming, limit), ref.near(sig, maxHamming, limit)
			if !slices.Equal(got, want) {
				t.Fatalf("near = %v, want %v", got, want)
			}
		}
	})
}

func BenchmarkRefBandsAdd(b *testing.B) {
	var packed []byte
	for k := range bandCount {
		packed = binary.BigEndian.AppendUint32(packed, uint32(k)<<16)
	}
	for b.Loop() {
		rb := newRefBands()
		for i := range 100_000 {
			for k := range bandCount {
				binary.BigEndian.PutUint32(packed[4*k:], uint32(k)<<16|uint32(uint16(i*(2*k+1)*40503)))
			}
			rb.add(int64(i), packed)
		}
	}
}
