package memgov

import "strings"

// Reserved keys of a memoryRef: the distillation index and archives are
// governed items the host writes; they are listed like any entry but never
// feed distillation, consolidation, search or forget.
const (
	IndexKey      = "MEMORY-INDEX.json"
	ArchivePrefix = "distill/"
)

// Reserved reports whether key is one of the host's reserved keys.
func Reserved(key string) bool { return key == IndexKey || strings.HasPrefix(key, ArchivePrefix) }
