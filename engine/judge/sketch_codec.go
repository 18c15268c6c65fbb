package judge

import (
	"encoding/binary"
	"errors"
	"sync"
)

// A text's sketches are kept with its version's features (a cache, not
// evidence, like them): the engine computes them when it indexes the
// version (Sketch), and the gates hand them to the judge with the
// candidates they read (Remember), so that a stored text is read in full
// once, when it is written or reindexed, rather than when a write first
// meets it. A sketch names the judge version and the sketch format that
// made it; one of another is ignored (and `memgov admin reindex` replaces
// it).

// sketchFormat names the encoding below: bump it when the sketches or
// their encoding change (and rulesRevision with it, so that the judge
// version changes and `memgov admin reindex` rewrites the stored ones).
const sketchFormat = "sk1"

// sketchStamp opens every encoded sketch.
func sketchStamp() string {
	stampOnce.Do(func() { stamp = sketchFormat + ":" + Version() + "\x00" })
	return stamp
}

var (
	stampOnce sync.Once
	stamp     string
)

// Sketch returns the encoded sketches of text, computed without any
// judge's caches (nothing of the text stays in memory); nil when text is
// too long to sketch.
func Sketch(text string) []byte { return defaultJudge.Sketch(text) }

// Sketch is the package's Sketch, from the sketches j has of text if it
// has them (j keeps nothing of a text it has not read).
func (j *Judge) Sketch(text string) []byte {
	if len(text) > preparedMaxText {
		return nil
	}
	sim, ok := j.simSketches.get(text)
	if !ok {
		sim = simSketchOf(newPrepared(text, j.lex))
	}
	if sim == nil {
		return nil
	}
	con, ok := j.conSketches.get(text)
	if !ok {
		con = conSketchOf(newSceneText(text))
	}
	return encodeSketch(text, sim, con)
}

func encodeSketch(text string, sim *simSketch, con *conSketch) []byte {
	b := []byte(sketchStamp())
	// The text it sketches, by length and hash: a sketch is used for that
	// text only.
	b = binary.AppendUvarint(b, uint64(len(text)))
	b = binary.LittleEndian.AppendUint64(b, textHash(text))
	b = appendStr(b, sim.buf)
	b = binary.AppendUvarint(b, uint64(len(sim.words)))
	for _, w := range sim.words {
		for _, sp := range []span{w.norm, w.raw, w.name, w.lname} {
			b = binary.AppendUvarint(b, uint64(sp.off))
			b = binary.AppendUvarint(b, uint64(sp.n))
		}
		b = binary.AppendUvarint(b, uint64(w.id))
		b = append(b, w.flags)
	}
	b = binary.AppendUvarint(b, uint64(sim.nset))
	for _, m := range []uint64{sim.rawLens, sim.joinedLens, sim.namedLens} {
		b = binary.LittleEndian.AppendUint64(b, m)
	}
	var flags byte
	for i, f := range []bool{sim.plain, con.hasPref, con.noScene, con.big, con.negated, con.denies, con.nobody} {
		if f {
			flags |= 1 << i
		}
	}
	b = append(b, flags)
	b = appendStr(b, con.pref.subject)
	b = appendStr(b, con.pref.first)
	b = appendStr(b, con.pref.second)
	for _, l := range [][]string{con.subjects, con.colored, con.units, con.openers, con.subjectOpeners} {
		b = binary.AppendUvarint(b, uint64(len(l)))
		for _, s := range l {
			b = appendStr(b, s)
		}
	}
	return b
}

// textHash is the 64-bit FNV-1a hash of text (hash/fnv's New64a),
// computed without copying text.
func textHash(text string) uint64 {
	const (
		offset64 = 14695981039346656037
		prime64  = 1099511628211
	)
	h := uint64(offset64)
	for i := 0; i < len(text); i++ {
		h ^= uint64(text[i])
		h *= prime64
	}
	return h
}

func appendStr(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

var errSketch = errors.New("not a sketch of this judge")

// sketchReader reads an encoded sketch; the first error sticks.
type sketchReader struct {
	b   []byte
	err error
}

func (r *sketchReader) uvarint(most uint64) uint64 {
	if r.err != nil {
		return 0
	}
	if len(r.b) > 0 && r.b[0] < 0x80 {
		// One byte: most of a sketch's numbers.
		v := uint64(r.b[0])
		if v > most {
			r.err = errSketch
			return 0
		}
		r.b = r.b[1:]
		return v
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > most {
		r.err = errSketch
		return 0
	}
	r.b = r.b[n:]
	return v
}

// span reads a span of a buffer of n bytes.
func (r *sketchReader) span(n int) span {
	off := r.uvarint(uint64(n))
	l := r.uvarint(uint64(n) - off)
	return span{uint16(off), uint16(l)}
}

func (r *sketchReader) str() string {
	n := r.uvarint(1 << 30)
	if r.err == nil && n > uint64(len(r.b)) {
		r.err = errSketch
	}
	if r.err != nil {
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func (r *sketchReader) byte() byte {
	if r.err != nil || len(r.b) == 0 {
		r.err = errSketch
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *sketchReader) u64() uint64 {
	if r.err != nil || len(r.b) < 8 {
		r.err = errSketch
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

// decodeSketch reads what Sketch wrote of text, if this judge's version
// wrote it.
func decodeSketch(text string, b []byte) (*simSketch, *conSketch, error) {
	stamp := sketchStamp()
	if len(b) < len(stamp) || string(b[:len(stamp)]) != stamp {
		return nil, nil, errSketch
	}
	r := &sketchReader{b: b[len(stamp):]}
	if n, h := r.uvarint(1<<62), r.u64(); r.err != nil || n != uint64(len(text)) || h != textHash(text) {
		return nil, nil, errSketch
	}
	sim := &simSketch{buf: r.str()}
	if len(sim.buf) >= 1<<16 {
		return nil, nil, errSketch // spans are 16 bits (simSketchOf)
	}
	nw := r.uvarint(maxSketchWords)
	if r.err != nil {
		return nil, nil, r.err
	}
	sim.words = make([]skWord, nw)
	for i := range sim.words {
		w := &sim.words[i]
		w.norm, w.raw, w.name, w.lname = r.span(len(sim.buf)), r.span(len(sim.buf)), r.span(len(sim.buf)), r.span(len(sim.buf))
		w.id = uint16(r.uvarint(uint64(i)))
		w.flags = r.byte()
	}
	sim.nset = int(r.uvarint(nw))
	sim.rawLens, sim.joinedLens, sim.namedLens = r.u64(), r.u64(), r.u64()
	flags := r.byte()
	con := &conSketch{}
	for i, f := range []*bool{&sim.plain, &con.hasPref, &con.noScene, &con.big, &con.negated, &con.denies, &con.nobody} {
		*f = flags&(1<<i) != 0
	}
	con.pref.subject, con.pref.first, con.pref.second = r.str(), r.str(), r.str()
	for _, l := range []*[]string{&con.subjects, &con.colored, &con.units, &con.openers, &con.subjectOpeners} {
		n := r.uvarint(uint64(len(r.b)))
		for k := uint64(0); k < n && r.err == nil; k++ {
			*l = append(*l, r.str())
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errSketch
	}
	if r.err != nil {
		return nil, nil, r.err
	}
	sim.index()
	return sim, con, nil
}

// Remember keeps the sketches of text that Sketch encoded (a stored
// version's), unless j has them: the next comparisons with text are
// answered from them where they prove the answer. A sketch of another
// judge version or of another text, or that does not decode, is ignored.
func (j *Judge) Remember(text string, sketch []byte) {
	if len(sketch) == 0 || j.conSketches.has(text) && j.simSketches.has(text) {
		return
	}
	sim, con, err := decodeSketch(text, sketch)
	if err != nil {
		return
	}
	j.simSketches.put(text, sim)
	j.conSketches.put(text, con)
}
