package engine

import (
	"encoding/json"

	"github.com/memgov/memgov/engine/memory"
)

// Features are what the dedup and contradiction gates compare, computed from a
// version's content the same way at write time and when the store indexes it.
type Features = memory.Features

// FeaturesOf computes the features of a canonical content object.
func FeaturesOf(content json.RawMessage) Features { return memory.FeaturesOf(content) }
