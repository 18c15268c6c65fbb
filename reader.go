package memgov

// A Reader is who a read of memory is for. Every read names one: a
// registered principal (As), whose reads authz bounds to what the
// principal may see (its tenant, the RBAC matrix, its clearance and
// domains), or the local owner of the database (Owner): whoever holds the
// database file and its key reads every tenant unfiltered, as the local
// CLI does without --as (SECURITY.md: the local owner is trusted).
type Reader struct {
	id    string
	owner bool
}

// Owner is the reader of the database's local owner.
var Owner = Reader{owner: true}

// As returns the reader of the registered principal id. The principal is
// looked up at each read: an id memgov does not know reads nothing
// (ErrUnauthorized).
func As(id string) Reader { return Reader{id: id} }

// IsOwner reports whether r is the local owner.
func (r Reader) IsOwner() bool { return r.owner }

// ID is the id of r's principal, "local" for the owner: the reader a
// recorded retrieval names.
func (r Reader) ID() string {
	if r.owner {
		return "local"
	}
	return r.id
}
