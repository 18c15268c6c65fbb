package engine

import (
	"context"
	"fmt"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
)

// Authz returns the engine's authority: the table and the policy's matrix.
// Services and the review console ask it; none compares roles itself.
func (e *Engine) Authz() *authz.Checker { return e.authz }

// Permit decides whether actor may perform a on t, loading the principal.
func (e *Engine) Permit(ctx context.Context, actor string, a authz.Action, t authz.Target) error {
	var p memgov.Principal
	err := e.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		p, err = tx.Principal(ctx, actor)
		return err
	})
	if err != nil {
		if isNotFound(err) {
			return fmt.Errorf("%w: unknown principal %q", memgov.ErrUnauthorized, actor)
		}
		return err
	}
	return e.authz.Permit(p, a, t)
}

// ReadRef checks that principal may read the whole memory of ref at once (a
// memory map, a snapshot export, a memory checkpoint, a drift report); see
// authz.Checker.ReadWhole.
func (e *Engine) ReadRef(ctx context.Context, principal, ref string) error {
	var p memgov.Principal
	err := e.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		p, err = tx.Principal(ctx, principal)
		return err
	})
	if err != nil {
		if isNotFound(err) {
			return fmt.Errorf("%w: unknown principal %q", memgov.ErrUnauthorized, principal)
		}
		return err
	}
	return e.authz.ReadWhole(p, ref)
}
