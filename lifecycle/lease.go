package lifecycle

import (
	"context"
	"fmt"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/guard"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/scope"
)

// Lease statuses (spec §12.8.3).
const (
	LeaseGranted = "GRANTED"
	LeaseRenewed = "RENEWED"
	LeaseDenied  = "DENIED"
)

type fencingKey struct{}

// WithFencingToken attaches the fencing token of a held lease to a write's
// context; the pipeline refuses a write whose token is older than the
// current token of its entry (write_valid of spec §12.8.3).
func WithFencingToken(ctx context.Context, token int64) context.Context {
	return context.WithValue(ctx, fencingKey{}, token)
}

// FencingToken returns the token WithFencingToken attached.
func FencingToken(ctx context.Context) (int64, bool) {
	t, ok := ctx.Value(fencingKey{}).(int64)
	return t, ok
}

// AcquireLease implements AcquireLease of spec §12.8.3 for the entry ref/key: granted
// with a strictly greater fencing token when the entry is unlocked or its lease
// expired or was released, renewed (same token) for the holder, denied
// otherwise. ttl is bounded by the policy's lease bounds. Grants and renewals
// are log entries; denials are counted for the lock contention rate.
func (s *Service) AcquireLease(ctx context.Context, ref, key, holder string, ttl time.Duration) (memgov.LeaseResult, error) {
	if _, err := scope.Parse(ref); err != nil || key == "" {
		return memgov.LeaseResult{}, fmt.Errorf("%w: a lease needs a valid memoryRef and a key", memgov.ErrInvalid)
	}
	if err := guard.CheckIdentifier("key", key); err != nil {
		return memgov.LeaseResult{}, fmt.Errorf("%w: %v", memgov.ErrInvalid, err)
	}
	if ttl <= 0 {
		ttl = s.policy.Review.LeaseTTL.Std()
	}
	if m := s.policy.Review.LeaseMaxTTL.Std(); m > 0 && ttl > m {
		ttl = m
	}
	var res memgov.LeaseResult
	err := s.store.Update(ctx, func(tx memgov.Tx) (err error) {
		p, err := tx.Principal(ctx, holder)
		if err != nil {
			return fmt.Errorf("%w: unknown principal %q", memgov.ErrUnauthorized, holder)
		}
		layer := memgov.Episodic
		if item, err := tx.ItemByKey(ctx, ref, key); err == nil {
			layer = item.Layer
		}
		if err := s.authz.Lease(p, ref, layer); err != nil {
			return err
		}
		now := s.now()
		cur, found, err := tx.LeaseOf(ctx, ref+"#"+key)
		if err != nil {
			return err
		}
		live := found && !cur.Released && now.Before(cur.ExpiresAt)
		token := cur.Token
		switch {
		case live && cur.Holder != holder:
			res = memgov.LeaseResult{Status: LeaseDenied, Holder: cur.Holder, RetryAfter: cur.ExpiresAt, Lease: cur}
			return tx.CountLease(ctx, now, false)
		case live:
			res.Status = LeaseRenewed
		default:
			token++
			res.Status = LeaseGranted
		}
		exp := now.Add(ttl)
		entry := &oplog.Entry{Time: now, Op: oplog.LeaseAcquire, MemoryRef: ref, Actor: holder}
		if err := oplog.AppendData(ctx, tx, entry, "lease "+res.Status, oplog.LeaseData{Key: key, Token: token, ExpiresAt: exp.Format(time.RFC3339Nano)}); err != nil {
			return err
		}
		res.Lease, _, err = tx.LeaseOf(ctx, ref+"#"+key)
		if err != nil {
			return err
		}
		return tx.CountLease(ctx, now, true)
	})
	return res, err
}

// RenewLease extends a held lease; it fails with ErrConflict when the lease was
// lost (expired and taken, or the token is stale).
func (s *Service) RenewLease(ctx context.Context, ref, key, holder string, token int64, ttl time.Duration) (memgov.Lease, error) {
	var cur memgov.Lease
	err := s.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		var found bool
		cur, found, err = tx.LeaseOf(ctx, ref+"#"+key)
		if err != nil {
			return err
		}
		if !found || cur.Holder != holder || cur.Token != token || cur.Released || !s.now().Before(cur.ExpiresAt) {
			return fmt.Errorf("%w: %s no longer holds lease %d on %s", memgov.ErrConflict, holder, token, key)
		}
		return nil
	})
	if err != nil {
		return memgov.Lease{}, err
	}
	r, err := s.AcquireLease(ctx, ref, key, holder, ttl)
	if err == nil && (r.Status != LeaseRenewed || r.Lease.Token != token) {
		err = fmt.Errorf("%w: lease on %s was lost", memgov.ErrConflict, key)
	}
	return r.Lease, err
}

// ReleaseLease gives a lease up; the next grant gets a greater token.
func (s *Service) ReleaseLease(ctx context.Context, ref, key, holder string, token int64) error {
	return s.store.Update(ctx, func(tx memgov.Tx) error {
		cur, found, err := tx.LeaseOf(ctx, ref+"#"+key)
		if err != nil {
			return err
		}
		if !found || cur.Holder != holder || cur.Token != token || cur.Released {
			return fmt.Errorf("%w: %s holds no lease %d on %s", memgov.ErrConflict, holder, token, key)
		}
		entry := &oplog.Entry{Time: s.now(), Op: oplog.LeaseRelease, MemoryRef: ref, Actor: holder}
		return oplog.AppendData(ctx, tx, entry, "lease released", oplog.LeaseData{Key: key, Token: token})
	})
}
