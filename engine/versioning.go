package engine

import "strings"

// tenantOf is the tenant of a memoryRef: its first segment.
func tenantOf(ref string) string {
	t, _, _ := strings.Cut(ref, "/")
	return t
}
