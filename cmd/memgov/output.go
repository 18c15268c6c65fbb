package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/guard"
)

// saneWriter passes every write through guard.Sanitize, the sanitiser the
// TUI uses: human-readable output never carries an escape sequence or an
// invisible character an agent wrote, whichever command prints it.
type saneWriter struct{ w io.Writer }

func (s saneWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, guard.Sanitize(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// encodeJSON writes v as JSON to the unsanitised stream with every control,
// escape, bidirectional and zero-width character \u-escaped: the strings are
// the stored ones, and no byte of them acts on a terminal.
func (a *app) encodeJSON(v any, indent bool) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	if indent {
		enc.SetIndent("", "  ")
	}
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := a.rawOut().Write(guard.EscapeJSON(b.Bytes()))
	return err
}

// rawOut is stdout without the sanitiser, for JSON (escaped by encodeJSON)
// and byte-exact artifacts printed to a file or pipe.
func (a *app) rawOut() io.Writer {
	if s, ok := a.stdout.(saneWriter); ok {
		return s.w
	}
	return a.stdout
}

// exactOut is where byte-exact artifacts go (canonical JSON, a snapshot
// export): raw to a file or pipe, so anyone can hash what they receive, and
// through the sanitiser on a terminal, where an escape in the data would act.
func (a *app) exactOut() io.Writer {
	if f, ok := a.rawOut().(*os.File); ok && isTerminal(f) {
		return a.stdout
	}
	return a.rawOut()
}

// readerNote says, on stderr, that a read ran without a reader: it acts as
// the local owner of the database and sees every tenant.
func (a *app) readerNote(p string) {
	if p == "" {
		fmt.Fprintln(a.stderr, "memgov: note: no reader given (--as or MEMGOV_PRINCIPAL): reading as the local owner of the database, every tenant")
	}
}

// bindReader bounds a read of the whole of ref by the reader (--as, else
// MEMGOV_PRINCIPAL): refused with exit 5 when the reader may not read it.
// Without a reader it notes that the local owner reads.
func (a *app) bindReader(cmd *cobra.Command, eng *engine.Engine, as, ref string) error {
	p := reader(as)
	if p == "" {
		a.readerNote(p)
		return nil
	}
	return denied(eng.ReadRef(cmd.Context(), p, ref))
}

// printAuthority prints the authority table (authz.Actions) as YAML
// comments after the policy, so `policy show > p.yaml` still loads.
func (a *app) printAuthority() {
	fmt.Fprintln(a.stdout, "\n# authority: who may do what (engine/authority.go; spec §12.8.2 RBAC matrix, CTI-1).")
	fmt.Fprintln(a.stdout, "# Every action needs: the principal governs the memory's tenant (CTI-1), its role holds")
	fmt.Fprintln(a.stdout, "# OP on the memory's layer in rbac above, it is one of WHO, and for NOT-WRITER actions it")
	fmt.Fprintln(a.stdout, "# neither wrote the memory nor acts for its writer (attribute agent=...). Executors act on")
	fmt.Fprintln(a.stdout, "# WORKING and SESSION memory of their own memoryRef only.")
	t := a.table("#", "ACTION", "OP", "WHO", "NOT-WRITER", "COMMANDS")
	for _, r := range authz.Actions {
		nw := "-"
		if r.NotWriter {
			nw = "yes"
		}
		t.row("#", string(r.Action), r.Op, string(r.Who), nw, r.Commands)
	}
	t.flush()
}
