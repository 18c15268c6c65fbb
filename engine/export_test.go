package engine

// SearchIndexesCached reports how many memoryRefs' search indexes are in
// memory.
func (e *Engine) SearchIndexesCached() int { return e.host.SearchCacheStats().Refs }

// SearchIndexBuilds reports how many search indexes were built in full and
// how many were brought up to date in place.
func (e *Engine) SearchIndexBuilds() (full, caughtUp int64) {
	st := e.host.SearchCacheStats()
	return st.Builds, st.CatchUps
}
