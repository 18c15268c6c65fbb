package gate

import (
	"context"
	"errors"
	"fmt"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/guard"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/scope"
)

// AuthorizationReader is what the authorization step reads.
type AuthorizationReader interface {
	Principal(ctx context.Context, id string) (memgov.Principal, error)
	ItemByKey(ctx context.Context, ref, key string) (memgov.Item, error)
}

// WorkspaceReader finds the workspace a memoryRef names.
type WorkspaceReader interface {
	WorkspaceByRef(ctx context.Context, ref string) (memgov.Workspace, bool, error)
}

// AuthorizationInput is what the authorization step needs.
type AuthorizationInput struct {
	Agent     string
	MemoryRef string
	Ref       scope.Ref // MemoryRef, parsed
	Layer     memgov.Layer
	Key       string
	Policy    *policy.Policy
	Reader    AuthorizationReader
	// Workspaces is nil when the store keeps no workspaces.
	Workspaces WorkspaceReader
}

// AuthorizationResult is what the authorization step finds.
type AuthorizationResult struct {
	Result
	Principal memgov.Principal
	// Item is the existing item of the request's key, if any.
	Item *memgov.Item
	// Workspace: the memoryRef is the writer's own open workspace, whose
	// merge request is the review of every write into it.
	Workspace bool
	// Review lists the reasons found here that route the write to a person.
	Review []string
}

// Authorization checks the principal and its right to write the memoryRef's
// layer (spec §12.8.2), and that the key keeps its layer.
type Authorization struct{}

// Name returns NameAuthorization.
func (Authorization) Name() string { return NameAuthorization }

// Evaluate denies unknown, suspended or foreign agents and roles that may not
// write the layer; agents may propose durable memory their role may not
// write directly, for a person to approve.
func (Authorization) Evaluate(ctx context.Context, in AuthorizationInput) (AuthorizationResult, error) {
	var out AuthorizationResult
	p, err := in.Reader.Principal(ctx, in.Agent)
	if errors.Is(err, memgov.ErrNotFound) {
		out.Result = deny(ReasonUnauthorized, "unknown agent %q; a curator registers it as a principal of tenant %s",
			guard.SanitizeLine(clip(in.Agent, 64)), in.Ref.Tenant).then(memgov.NextRegisterAgent)
		return out, nil
	}
	if err != nil {
		return AuthorizationResult{}, fmt.Errorf("read principal %s: %w", safeID(in.Agent), err)
	}
	out.Principal = p
	if p.Suspended {
		out.Result = deny(ReasonSuspended, "%s's writes are suspended after a burst; a curator reinstates it", p.ID).then(memgov.NextReinstateAgent)
		return out, nil
	}
	if !authz.Governs(p, in.Ref.Tenant) {
		out.Result = deny(ReasonUnauthorized, "%s belongs to tenant %s and may not write memory of another tenant", p.ID, p.Tenant)
		return out, nil
	}
	out.Workspace, err = ownWorkspace(ctx, in, p.ID)
	if err != nil {
		return AuthorizationResult{}, err
	}
	if !in.Policy.Allowed(string(p.Role), string(in.Layer), policy.OpWrite) {
		// Agents may propose durable memory their role may not write
		// directly; a person approves it (spec §12.1.4: semantic and procedural
		// memory are governance-approved). In the agent's own workspace the
		// merge request is that approval.
		if authz.ProposesDurable(p) && in.Layer.Durable() {
			if !out.Workspace {
				out.Review = append(out.Review, ReasonRoleApproval)
			}
		} else {
			out.Result = deny(ReasonUnauthorized, "a %s may not write %s memory", p.Role, in.Layer)
			return out, nil
		}
	}
	if in.Key != "" {
		item, err := in.Reader.ItemByKey(ctx, in.MemoryRef, in.Key)
		switch {
		case errors.Is(err, memgov.ErrNotFound):
		case err != nil:
			return AuthorizationResult{}, fmt.Errorf("read item %s: %w", in.Key, err)
		case item.Layer != in.Layer:
			out.Result = reject(ReasonLayerConflict, "key %s holds %s memory; moving it to %s needs a reclassification", item.Key, item.Layer, in.Layer)
			return out, nil
		default:
			out.Item = &item
		}
	}
	out.Result = accept()
	return out, nil
}

// ownWorkspace reports whether the memoryRef is agent's open workspace
// (<tenant>/<agent>/ws/<name>).
func ownWorkspace(ctx context.Context, in AuthorizationInput, agent string) (bool, error) {
	if in.Workspaces == nil || len(in.Ref.Namespace) != 2 || in.Ref.Namespace[0] != "ws" {
		return false, nil
	}
	ws, found, err := in.Workspaces.WorkspaceByRef(ctx, in.MemoryRef)
	if err != nil {
		return false, fmt.Errorf("read workspace %s: %w", in.MemoryRef, err)
	}
	return found && ws.Owner == agent && ws.Status == memgov.WorkspaceOpen, nil
}

// safeID renders an id for a message, or a placeholder.
func safeID(s string) string {
	if memgov.ValidID(s) {
		return s
	}
	return "AGENT_ID"
}
