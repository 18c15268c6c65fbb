package gate

import (
	"context"
	"errors"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/guard"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/schema"
)

// SchemaInput is what the schema gate needs.
type SchemaInput struct {
	Raw             []byte // the request as received (JSON)
	Layer           memgov.Layer
	ObservationType string
	Policy          *policy.Policy
}

// Schema validates the request against the per-layer JSON Schemas and the
// spec §14.2 write criteria (observation types, default deny).
type Schema struct {
	Validator *schema.Validator
}

// Name returns NameSchema.
func (Schema) Name() string { return NameSchema }

// Evaluate rejects a request its layer's schema refuses, or whose observation
// type the layer does not admit. It reads nothing and never fails.
func (g Schema) Evaluate(_ context.Context, in SchemaInput) (Result, error) {
	if err := g.Validator.ValidateJSON(in.Raw); err != nil {
		var se *schema.Error
		if !errors.As(err, &se) {
			// ValidateJSON reports every problem of the request as a
			// *schema.Error; anything else is reported the same way.
			return reject(ReasonSchemaInvalid, "%v", err), nil
		}
		var msgs []string
		for _, v := range se.Violations {
			msgs = append(msgs, v.String())
		}
		return reject(ReasonSchemaInvalid, "%s", strings.Join(msgs, "; ")), nil
	}
	if !in.Policy.Admissible(string(in.Layer), in.ObservationType) {
		ot := in.ObservationType
		if ot == "" {
			ot = "(none)"
		}
		return reject(ReasonNotAdmissible, "observation_type %s is not admitted to %s memory (write criteria, default deny)", guard.SanitizeLine(clip(ot, 40)), in.Layer), nil
	}
	return accept(), nil
}

// CheckLayer rejects a target layer that is none of the five, before anything
// that depends on the layer is judged.
func (Schema) CheckLayer(layer memgov.Layer) Result {
	if _, err := memgov.ParseLayer(string(layer)); err != nil {
		return reject(ReasonSchemaInvalid, "/target_layer: must be one of WORKING, SESSION, EPISODIC, SEMANTIC, PROCEDURAL")
	}
	return accept()
}
