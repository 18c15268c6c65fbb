package redact

// Contains reports whether s holds one of the redactor's secrets. An
// identifier (a memoryRef, a key) cannot be redacted without becoming
// another identifier, so the engine refuses one that contains a secret.
func (r *Redactor) Contains(s string) bool {
	if r.Empty() {
		return false
	}
	return r.contains(s)
}
