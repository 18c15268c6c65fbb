package sqlstore

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
)

// ServedDigest digests every row of every compared table under prefix ("" or
// "live."). Each row is hashed as SHA-256(key || row) under the log key, and a
// table's digest is the sum modulo 2^256 of its rows' hashes: it does not
// depend on the order SQLite returns rows in, and without the key nobody can
// compute row hashes to balance an edit. The tables' digests are hashed in
// the order of comparedTables.
func ServedDigest(ctx context.Context, q Bound, prefix string, key []byte) ([]byte, error) {
	all := sha256.New()
	for _, d := range ComparedTables(q.d) {
		rows, err := q.QueryContext(ctx, `SELECT * FROM `+prefix+d.Name)
		if err != nil {
			return nil, fmt.Errorf("digest %s: %w", d.Name, err)
		}
		cols, err := rows.Columns()
		if err != nil {
			rows.Close()
			return nil, err
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		var (
			sum [4]uint64 // little-endian limbs of the sum modulo 2^256
			n   int64
		)
		buf := append(make([]byte, 0, 512), key...)
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return nil, err
			}
			buf = buf[:len(key)]
			for _, v := range vals {
				buf = appendValue(buf, v)
			}
			rh := sha256.Sum256(buf)
			var c uint64
			for i := range sum {
				sum[i], c = bits.Add64(sum[i], binary.BigEndian.Uint64(rh[24-8*i:32-8*i]), c)
			}
			n++
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		var tb [32]byte
		for i := range sum {
			binary.BigEndian.PutUint64(tb[24-8*i:32-8*i], sum[i])
		}
		all.Write([]byte(d.Name))
		all.Write([]byte{0})
		binary.Write(all, binary.BigEndian, n)
		all.Write(tb[:])
	}
	return all.Sum(nil), nil
}

// appendValue encodes one column value with its type and length.
func appendValue(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, 0)
	case int64:
		b = append(b, 1)
		return binary.BigEndian.AppendUint64(b, uint64(x))
	case float64:
		b = append(b, 2)
		return binary.BigEndian.AppendUint64(b, math.Float64bits(x))
	case string:
		b = append(b, 3)
		b = binary.BigEndian.AppendUint32(b, uint32(len(x)))
		return append(b, x...)
	case []byte:
		b = append(b, 4)
		b = binary.BigEndian.AppendUint32(b, uint32(len(x)))
		return append(b, x...)
	case bool:
		if x {
			return append(b, 5, 1)
		}
		return append(b, 5, 0)
	default:
		s := fmt.Sprint(x)
		b = append(b, 6)
		b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
		return append(b, s...)
	}
}

// VerifyStateMAC binds a replay's log size, chain value and table digest.
func VerifyStateMAC(key []byte, size int64, chain, digest []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("memgov-verify-state\x00"))
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(size))
	m.Write(b[:])
	m.Write(chain)
	m.Write(digest)
	return m.Sum(nil)
}
