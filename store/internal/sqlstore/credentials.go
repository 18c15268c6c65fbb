package sqlstore

import (
	"context"
	"database/sql"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// applyToken keeps the tokens table in step with TOKEN_CREATE and TOKEN_REVOKE.
func applyToken(ctx context.Context, q querier, e *oplog.Entry) error {
	d, err := oplog.DecodeData[oplog.TokenData](e)
	if err != nil {
		return err
	}
	if e.Op == oplog.TokenRevoke {
		res, err := q.ExecContext(ctx, `UPDATE tokens SET revoked_at = ?, revoked_by = ? WHERE id = ? AND revoked_at IS NULL`, ms(e.Time), e.Actor, d.ID)
		return wrapApply(e, mustOne(res, err))
	}
	var exp any
	if d.ExpiresAt != nil {
		exp = ms(*d.ExpiresAt)
	}
	_, err = q.ExecContext(ctx, `INSERT INTO tokens (id, principal, hash, created_at, created_by, expires_at, lsn) VALUES (?,?,?,?,?,?,?)`,
		d.ID, d.Principal, d.Hash, ms(e.Time), e.Actor, exp, e.LSN)
	return wrapApply(e, err)
}

// applySSHKey records an authorised SSH key.
func applySSHKey(ctx context.Context, q querier, e *oplog.Entry) error {
	d, err := oplog.DecodeData[oplog.SSHKeyData](e)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO ssh_keys (fingerprint, principal, public_key, added_at, added_by, lsn) VALUES (?,?,?,?,?,?)`,
		d.Fingerprint, d.Principal, d.PublicKey, ms(e.Time), e.Actor, e.LSN)
	return wrapApply(e, err)
}

const tokenCols = `id, principal, hash, created_at, created_by, expires_at, revoked_at, COALESCE(revoked_by, '')`

func scanToken(sc Scanner) (memgov.Token, error) {
	var (
		t                memgov.Token
		at               int64
		expires, revoked sql.NullInt64
	)
	if err := sc.Scan(&t.ID, &t.Principal, &t.Hash, &at, &t.CreatedBy, &expires, &revoked, &t.RevokedBy); err != nil {
		return t, err
	}
	t.CreatedAt = fromMS(at)
	if expires.Valid {
		x := fromMS(expires.Int64)
		t.ExpiresAt = &x
	}
	if revoked.Valid {
		x := fromMS(revoked.Int64)
		t.RevokedAt = &x
	}
	return t, nil
}

func (r *ReadTx) TokenByHash(ctx context.Context, hash string) (memgov.Token, error) {
	t, err := scanToken(r.q.QueryRowContext(ctx, `SELECT `+tokenCols+` FROM tokens WHERE hash = ?`, hash))
	return t, notFound("token", "", err)
}

func (r *ReadTx) Token(ctx context.Context, id string) (memgov.Token, error) {
	t, err := scanToken(r.q.QueryRowContext(ctx, `SELECT `+tokenCols+` FROM tokens WHERE id = ?`, id))
	return t, notFound("token", id, err)
}

func (r *ReadTx) Tokens(ctx context.Context) ([]memgov.Token, error) {
	return queryAll(ctx, r.q, scanToken, `SELECT `+tokenCols+` FROM tokens ORDER BY principal, created_at, id`)
}

const sshKeyCols = `fingerprint, principal, public_key, added_at, added_by`

func scanSSHKey(sc Scanner) (memgov.SSHKey, error) {
	var (
		k  memgov.SSHKey
		at int64
	)
	if err := sc.Scan(&k.Fingerprint, &k.Principal, &k.PublicKey, &at, &k.AddedBy); err != nil {
		return k, err
	}
	k.AddedAt = fromMS(at)
	return k, nil
}

func (r *ReadTx) SSHKey(ctx context.Context, fingerprint string) (memgov.SSHKey, error) {
	k, err := scanSSHKey(r.q.QueryRowContext(ctx, `SELECT `+sshKeyCols+` FROM ssh_keys WHERE fingerprint = ?`, fingerprint))
	return k, notFound("ssh key", fingerprint, err)
}

func (r *ReadTx) SSHKeys(ctx context.Context) ([]memgov.SSHKey, error) {
	return queryAll(ctx, r.q, scanSSHKey, `SELECT `+sshKeyCols+` FROM ssh_keys ORDER BY principal, added_at`)
}
