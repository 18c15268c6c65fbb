package engine

// OnErasureHeard tells fn after each erasure notification the engine acts
// on. Set it before the engine's first write or search.
func (e *Engine) OnErasureHeard(fn func()) {
	e.erasures.mu.Lock()
	defer e.erasures.mu.Unlock()
	e.erasures.heard = fn
}
