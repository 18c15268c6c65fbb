package sqlite

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"strings"

	"modernc.org/sqlite"

	"github.com/memgov/memgov/store/internal/sqlstore"
)

// The served tables' digest. Each row of a compared table is encoded with
// every value's type and length (memgov_row, a function the store registers
// with SQLite), hashed as SHA-256(key || row) under the log key, and a
// table's part is the count of its rows and the sum of their hashes modulo
// 2^256, summed inside SQLite by the aggregate memgov_row_sum (no row is
// copied out). Sums are added to and taken from: the
// verified snapshot keeps the sums of its tables (verify_sums), and an
// incremental verify adds the rows the new entries wrote and takes away the
// rows they replaced or removed, instead of digesting the snapshot again.
// Without the key nobody can compute a row's hash to balance an edit.

// tableSum is one table's part of the digest.
type tableSum struct {
	n   int64
	sum [32]byte // big-endian, modulo 2^256
}

func (t *tableSum) add(h [32]byte, sign int) {
	var c uint64
	if sign < 0 {
		// Subtract: add the two's complement of h.
		var neg [32]byte
		for i := range h {
			neg[i] = ^h[i]
		}
		for i := 31; i >= 0; i-- {
			neg[i]++
			if neg[i] != 0 {
				break
			}
		}
		h = neg
		t.n--
	} else {
		t.n++
	}
	for i := 3; i >= 0; i-- {
		var v uint64
		v, c = bits.Add64(binary.BigEndian.Uint64(t.sum[8*i:]), binary.BigEndian.Uint64(h[8*i:]), c)
		binary.BigEndian.PutUint64(t.sum[8*i:], v)
	}
}

// servedSums are the parts of every compared table, by name.
type servedSums map[string]*tableSum

// digest is the served tables' digest: their parts hashed in the order of
// the compared tables.
func (s servedSums) digest() []byte {
	all := sha256.New()
	for _, d := range sqlstore.ComparedTables(dialect) {
		t := s[d.Name]
		if t == nil {
			t = &tableSum{}
		}
		all.Write([]byte(d.Name))
		all.Write([]byte{0})
		binary.Write(all, binary.BigEndian, t.n)
		all.Write(t.sum[:])
	}
	return all.Sum(nil)
}

func (s servedSums) equal(o servedSums) bool {
	for _, d := range sqlstore.ComparedTables(dialect) {
		a, b := s[d.Name], o[d.Name]
		if a == nil {
			a = &tableSum{}
		}
		if b == nil {
			b = &tableSum{}
		}
		if *a != *b {
			return false
		}
	}
	return true
}

// rowHash is SHA-256(key || row).
func rowHash(buf []byte, key []byte, row []byte) ([32]byte, []byte) {
	buf = append(append(buf[:0], key...), row...)
	return sha256.Sum256(buf), buf
}

// appendRow encodes one row: each value with its type and length.
func appendRow(b []byte, vals []driver.Value) []byte {
	for _, v := range vals {
		switch x := v.(type) {
		case nil:
			b = append(b, 0)
		case int64:
			b = append(b, 1)
			b = binary.BigEndian.AppendUint64(b, uint64(x))
		case float64:
			b = append(b, 2)
			b = binary.BigEndian.AppendUint64(b, math.Float64bits(x))
		case string:
			b = append(b, 3)
			b = binary.BigEndian.AppendUint32(b, uint32(len(x)))
			b = append(b, x...)
		case []byte:
			b = append(b, 4)
			b = binary.BigEndian.AppendUint32(b, uint32(len(x)))
			b = append(b, x...)
		default:
			s := fmt.Sprint(x)
			b = append(b, 6)
			b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
			b = append(b, s...)
		}
	}
	return b
}

// rowSum is the aggregate memgov_row_sum(key, col, ...): the count and sum
// of the rows' hashes, as 8 + 32 bytes.
type rowSum struct {
	t   tableSum
	buf []byte
}

func (r *rowSum) Step(_ *sqlite.FunctionContext, args []driver.Value) error {
	key, ok := args[0].([]byte)
	if !ok {
		return fmt.Errorf("memgov_row_sum: the key must be a blob")
	}
	r.buf = appendRow(append(r.buf[:0], key...), args[1:])
	r.t.add(sha256.Sum256(r.buf), 1)
	return nil
}

func (r *rowSum) WindowInverse(*sqlite.FunctionContext, []driver.Value) error {
	return fmt.Errorf("memgov_row_sum is not a window function")
}

func (r *rowSum) WindowValue(*sqlite.FunctionContext) (driver.Value, error) {
	return append(binary.BigEndian.AppendUint64(nil, uint64(r.t.n)), r.t.sum[:]...), nil
}

func (r *rowSum) Final(*sqlite.FunctionContext) {}

func init() {
	sqlite.MustRegisterFunction("memgov_row", &sqlite.FunctionImpl{NArgs: -1, Deterministic: true,
		Scalar: func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			return appendRow(nil, args), nil
		}})
	sqlite.MustRegisterFunction("memgov_row_sum", &sqlite.FunctionImpl{NArgs: -1, Deterministic: true, VolatileArgs: true,
		MakeAggregate: func(sqlite.FunctionContext) (sqlite.AggregateFunction, error) { return &rowSum{}, nil }})
	sqlite.MustRegisterFunction("memgov_log_sum", &sqlite.FunctionImpl{NArgs: 16, Deterministic: true, VolatileArgs: true,
		MakeAggregate: func(sqlite.FunctionContext) (sqlite.AggregateFunction, error) { return &logSum{}, nil }})
}

// columnsOf lists a table's columns in order.
func columnsOf(ctx context.Context, q sqlstore.Querier, schema, table string) ([]string, error) {
	rows, err := q.QueryContext(ctx, fmt.Sprintf(`SELECT name FROM pragma_table_info('%s', '%s') ORDER BY cid`, table, schema))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		cols = append(cols, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(cols) == 0 {
		return nil, fmt.Errorf("digest: table %s.%s has no columns", schema, table)
	}
	return cols, nil
}

// columnList lists cols (of row, "" or "NEW." or "OLD.") for SQL.
func columnList(cols []string, row string) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = row + `"` + strings.ReplaceAll(c, `"`, `""`) + `"`
	}
	return strings.Join(parts, ", ")
}

// tableSums digests every compared table of schema ("main" or "live").
func tableSums(ctx context.Context, q sqlstore.Querier, schema string, key []byte) (servedSums, error) {
	out := servedSums{}
	for _, d := range sqlstore.ComparedTables(dialect) {
		cols, err := columnsOf(ctx, q, schema, d.Name)
		if err != nil {
			return nil, err
		}
		t, err := digestTable(ctx, q, schema, d.Name, cols, key)
		if err != nil {
			return nil, err
		}
		out[d.Name] = t
	}
	return out, nil
}

func digestTable(ctx context.Context, q sqlstore.Querier, schema, table string, cols []string, key []byte) (*tableSum, error) {
	var b []byte
	if err := q.QueryRowContext(ctx, fmt.Sprintf(`SELECT memgov_row_sum(?, %s) FROM %s.%s`, columnList(cols, ""), schema, table), key).Scan(&b); err != nil {
		return nil, fmt.Errorf("digest %s: %w", table, err)
	}
	t := &tableSum{}
	if b == nil { // no rows
		return t, nil
	}
	if len(b) != 8+len(t.sum) {
		return nil, fmt.Errorf("digest %s: a sum of %d bytes", table, len(b))
	}
	t.n = int64(binary.BigEndian.Uint64(b))
	copy(t.sum[:], b[8:])
	return t, nil
}

// servedDigest is the digest of the compared tables of schema.
func servedDigest(ctx context.Context, q sqlstore.Querier, schema string, key []byte) ([]byte, error) {
	s, err := tableSums(ctx, q, schema, key)
	if err != nil {
		return nil, err
	}
	return s.digest(), nil
}

// keepSums records the sums of a snapshot's tables in the snapshot.
func keepSums(ctx context.Context, q sqlstore.Querier, sums servedSums) error {
	if _, err := q.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS main.verify_sums (tbl TEXT PRIMARY KEY, n INTEGER NOT NULL, sum BLOB NOT NULL) STRICT`); err != nil {
		return err
	}
	for name, t := range sums {
		if _, err := q.ExecContext(ctx, `INSERT INTO main.verify_sums (tbl, n, sum) VALUES (?, ?, ?)
			ON CONFLICT (tbl) DO UPDATE SET n = excluded.n, sum = excluded.sum`, name, t.n, t.sum[:]); err != nil {
			return err
		}
	}
	return nil
}

// keptSums reads the sums a snapshot keeps; nil when it keeps none (a
// snapshot of an earlier version).
func keptSums(ctx context.Context, q sqlstore.Querier) (servedSums, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM main.sqlite_master WHERE type = 'table' AND name = 'verify_sums'`).Scan(&n); err != nil || n == 0 {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, `SELECT tbl, n, sum FROM main.verify_sums`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := servedSums{}
	for rows.Next() {
		var (
			name string
			t    tableSum
			sum  []byte
		)
		if err := rows.Scan(&name, &t.n, &sum); err != nil {
			return nil, err
		}
		if len(sum) != len(t.sum) {
			return nil, nil
		}
		copy(t.sum[:], sum)
		out[name] = &t
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, d := range sqlstore.ComparedTables(dialect) {
		if out[d.Name] == nil {
			return nil, nil
		}
	}
	return out, nil
}

// deltaTriggers makes every change to a compared table of the snapshot
// (main) leave the text of the row it removed (sign -1) and of the row it
// wrote (sign +1) in temp.verify_delta. A full-text table takes no trigger:
// its rows are those of its content table (<name>_content: id, c0, c1, ...),
// which takes them. Tables listed in whole are digested in whole instead.
func deltaTriggers(ctx context.Context, q sqlstore.Querier) (whole []string, err error) {
	stmts := []string{`CREATE TEMP TABLE verify_delta (tbl TEXT NOT NULL, sign INTEGER NOT NULL, row BLOB NOT NULL)`}
	for _, d := range sqlstore.ComparedTables(dialect) {
		cols, err := columnsOf(ctx, q, "main", d.Name)
		if err != nil {
			return nil, err
		}
		target := d.Name
		var virtual int
		if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM main.sqlite_master WHERE type = 'table' AND name = ? AND sql LIKE 'CREATE VIRTUAL TABLE%'`, d.Name).Scan(&virtual); err != nil {
			return nil, err
		}
		if virtual > 0 {
			content, err := columnsOf(ctx, q, "main", d.Name+"_content")
			if err != nil || len(content) != len(cols)+1 {
				whole = append(whole, d.Name)
				continue
			}
			target = d.Name + "_content"
			cols = content[1:] // c0, c1, ...: the virtual table's columns in order
		}
		ins := func(sign, row string) string {
			return fmt.Sprintf(`INSERT INTO temp.verify_delta (tbl, sign, row) VALUES ('%s', %s, %s);`, d.Name, sign, "memgov_row("+columnList(cols, row)+")")
		}
		stmts = append(stmts,
			fmt.Sprintf(`CREATE TEMP TRIGGER verify_delta_%s_ins AFTER INSERT ON main.%s BEGIN %s END`, d.Name, target, ins("1", "NEW.")),
			fmt.Sprintf(`CREATE TEMP TRIGGER verify_delta_%s_upd AFTER UPDATE ON main.%s BEGIN %s %s END`, d.Name, target, ins("-1", "OLD."), ins("1", "NEW.")),
			fmt.Sprintf(`CREATE TEMP TRIGGER verify_delta_%s_del AFTER DELETE ON main.%s BEGIN %s END`, d.Name, target, ins("-1", "OLD.")))
	}
	for _, s := range stmts {
		if _, err := q.ExecContext(ctx, s); err != nil {
			return nil, fmt.Errorf("verify: %w", err)
		}
	}
	return whole, nil
}

// applyDelta adds the changes left in temp.verify_delta to sums, and
// digests the tables listed in whole again.
func applyDelta(ctx context.Context, q sqlstore.Querier, sums servedSums, whole []string, key []byte) error {
	rows, err := q.QueryContext(ctx, `SELECT tbl, sign, row FROM temp.verify_delta`)
	if err != nil {
		return err
	}
	defer rows.Close()
	var (
		tbl      string
		row, buf []byte
		sign     int
	)
	for rows.Next() {
		if err := rows.Scan(&tbl, &sign, &row); err != nil {
			return err
		}
		t := sums[tbl]
		if t == nil {
			return fmt.Errorf("verify: a change to %s, which is not compared", tbl)
		}
		var h [32]byte
		h, buf = rowHash(buf, key, row)
		t.add(h, sign)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows.Close()
	for _, name := range whole {
		cols, err := columnsOf(ctx, q, "main", name)
		if err != nil {
			return err
		}
		t, err := digestTable(ctx, q, "main", name, cols, key)
		if err != nil {
			return err
		}
		sums[name] = t
	}
	return nil
}

// logSum is the aggregate memgov_log_sum(key, <sqlstore.LogRowColumns>): the
// sum of the log rows' hashes as a sqlstore.LogMark digests them.
type logSum struct {
	sum [32]byte
	buf []byte
}

func asString(v driver.Value) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case nil:
		return ""
	default:
		return fmt.Sprint(x)
	}
}

func asBytes(v driver.Value) []byte {
	switch x := v.(type) {
	case []byte:
		return x
	case string:
		return []byte(x)
	case nil:
		return nil
	default:
		return []byte(fmt.Sprint(x))
	}
}

func asInt(v driver.Value) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case float64:
		return int64(x), true
	case nil:
		return 0, false
	default:
		return 0, true // not a number: hashed as 0, and no such row verifies
	}
}

func (l *logSum) Step(_ *sqlite.FunctionContext, a []driver.Value) error {
	if len(a) != 16 {
		return fmt.Errorf("memgov_log_sum: %d arguments, want 16", len(a))
	}
	key := asBytes(a[0])
	lsn, _ := asInt(a[1])
	ts, _ := asInt(a[2])
	var strs [7]string
	for i := range strs {
		strs[i] = asString(a[3+i])
	}
	var (
		erasedBy sql.NullInt64
		erasOp   sql.NullString
	)
	erasedBy.Int64, erasedBy.Valid = asInt(a[13])
	if a[14] != nil {
		erasOp = sql.NullString{String: asString(a[14]), Valid: true}
	}
	var h [32]byte
	h, l.buf = sqlstore.LogRowHash(l.buf, key, lsn, ts, strs, asBytes(a[10]), asBytes(a[11]), asBytes(a[12]), erasedBy, erasOp, asBytes(a[15]))
	sqlstore.AddSum(&l.sum, h)
	return nil
}

func (l *logSum) WindowInverse(*sqlite.FunctionContext, []driver.Value) error {
	return fmt.Errorf("memgov_log_sum is not a window function")
}

func (l *logSum) WindowValue(*sqlite.FunctionContext) (driver.Value, error) {
	return append([]byte(nil), l.sum[:]...), nil
}

func (l *logSum) Final(*sqlite.FunctionContext) {}

// logRowsSum sums the log rows of the entries after from up to to in
// SQLite, for sqlstore.VerifyLogFrom.
func logRowsSum(q sqlstore.Querier, key []byte) sqlstore.LogRowsSum {
	return func(ctx context.Context, from, to int64) ([32]byte, error) {
		var (
			out [32]byte
			b   []byte
		)
		if err := q.QueryRowContext(ctx, `SELECT memgov_log_sum(?, `+sqlstore.LogRowColumns+`) `+sqlstore.LogRowsQuery, key, from, to).Scan(&b); err != nil {
			return out, fmt.Errorf("log mark: %w", err)
		}
		if b == nil {
			return out, nil // no rows: the sum of none
		}
		if len(b) != len(out) {
			return out, fmt.Errorf("log mark: a sum of %d bytes", len(b))
		}
		copy(out[:], b)
		return out, nil
	}
}
