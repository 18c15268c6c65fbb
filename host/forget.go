package host

import (
	"context"
	"fmt"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/scope"
)

// ForgetResult reports a delete-by-subject.
type ForgetResult struct {
	MemoryRef string   `json:"memory_ref"`
	Scanned   int      `json:"scanned"`
	Forgotten int      `json:"forgotten"`
	Keys      []string `json:"keys"`
	LSN       int64    `json:"lsn,omitempty"` // of the last RETRACT entry
}

// Forget is the retention dimension's tenant-scoped delete-by-subject (spec
// §15.11): every ACTIVE, unexpired entry of ref whose content names
// the subject — content.subject equal to it, or its text containing it, both
// case-insensitively — is RETRACTED by a log entry with the actor and reason.
// Forget erases from live memory only: the log and read snapshots at earlier
// positions keep the history (replay-stable). The actor must be a curator or
// operator governing the ref's tenant. Reserved keys are never forgotten.
func (svc *Service) Forget(ctx context.Context, ref, subject, actor, reason string) (ForgetResult, error) {
	res := ForgetResult{MemoryRef: ref, Keys: []string{}}
	subject = strings.TrimSpace(subject)
	if subject == "" {
		return res, fmt.Errorf("%w: forget needs a subject", memgov.ErrInvalid)
	}
	if strings.TrimSpace(reason) == "" {
		reason = "forget by subject"
	}
	if _, err := scope.Parse(ref); err != nil {
		return res, fmt.Errorf("%w: memory ref: %v", memgov.ErrInvalid, err)
	}
	want := strings.ToLower(subject)
	err := svc.store.Update(ctx, func(tx memgov.Tx) error {
		if _, err := svc.authz.Govern(ctx, tx, actor, ref, authz.ActForget); err != nil {
			return err
		}
		vs, err := tx.Active(ctx, memgov.ActiveQuery{MemoryRef: ref, Now: svc.now()})
		if err != nil {
			return err
		}
		for _, v := range vs {
			if memgov.Reserved(v.Key) {
				continue
			}
			res.Scanned++
			hit, err := mentions(v, want)
			if err != nil {
				return err
			}
			if !hit {
				continue
			}
			lsn, err := svc.writes.Retract(ctx, tx, v, actor, reason)
			if err != nil {
				return err
			}
			res.Forgotten++
			res.Keys = append(res.Keys, v.Key)
			res.LSN = lsn
		}
		return nil
	})
	return res, err
}

// mentions reports whether v's content's subject equals want or its text
// contains it (want is lower case). A corrupt stored content is an error
// naming the version: a forget never passes over a row it cannot read.
func mentions(v memgov.Version, want string) (bool, error) {
	var c struct {
		Text    string `json:"text"`
		Subject any    `json:"subject"`
	}
	if err := v.DecodeContent(&c); err != nil {
		return false, err
	}
	if s, ok := c.Subject.(string); ok && strings.EqualFold(strings.TrimSpace(s), want) {
		return true, nil
	}
	return strings.Contains(strings.ToLower(c.Text), want), nil
}
