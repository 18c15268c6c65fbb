package archtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// listExport runs `go list -export -deps -json` on patterns and returns the
// packages it names and the export data file of each, by import path.
func listExport(t *testing.T, patterns ...string) ([]exported, map[string]string) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-export", "-deps", "-json"}, patterns...)...)
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v\n%s", err, stderr.String())
	}
	var pkgs []exported
	exports := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p exported
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("decoding go list: %v", err)
		}
		exports[p.ImportPath] = p.Export
		pkgs = append(pkgs, p)
	}
	return pkgs, exports
}

// exportImporter imports packages from the export data files of exports.
func exportImporter(fset *token.FileSet, exports map[string]string) types.Importer {
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok || f == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	})
}

// exportedTypes loads the compiled types of the module's packages pkgs
// (import paths): what a package offers its callers.
func exportedTypes(t *testing.T, pkgs ...string) map[string]*types.Package {
	t.Helper()
	_, exports := listExport(t, pkgs...)
	imp := exportImporter(token.NewFileSet(), exports)
	got := map[string]*types.Package{}
	for _, path := range pkgs {
		p, err := imp.Import(path)
		if err != nil {
			t.Fatalf("importing %s: %v", path, err)
		}
		got[path] = p
	}
	return got
}

// methods returns the exported methods of *T in package p, by name.
func methods(t *testing.T, p *types.Package, typ string) map[string]*types.Signature {
	t.Helper()
	obj := p.Scope().Lookup(typ)
	if obj == nil {
		t.Fatalf("%s has no type %s", p.Path(), typ)
	}
	ms := types.NewMethodSet(types.NewPointer(obj.Type()))
	out := map[string]*types.Signature{}
	for i := 0; i < ms.Len(); i++ {
		f := ms.At(i).Obj()
		if f.Exported() {
			out[f.Name()] = f.Type().(*types.Signature)
		}
	}
	return out
}

// One read API, bounded by the reader: the reads of memory, and of the
// outbox of events, are the host service's, each names its reader (a memgov.Reader: the local owner or a
// registered principal) right after its context, and the engine offers no
// read of its own beside them, scoped or not, nor a MemoryAdapter.
func TestOneReadAPIBoundedByTheReader(t *testing.T) {
	host, eng := module+"/host", module+"/engine"
	pkgs := exportedTypes(t, host, eng)
	reads := []string{"Read", "Get", "History", "Item", "ItemByKey", "Version", "Versions", "Refs", "ActivePage", "VisibleCounts", "Links", "Adapter", "Events"}
	hs := methods(t, pkgs[host], "Service")
	for _, name := range reads {
		sig, ok := hs[name]
		if !ok {
			t.Errorf("host.Service has no read %s", name)
			continue
		}
		if !namesReader(sig) {
			t.Errorf("host.Service.%s%s does not name its reader (a memgov.Reader after the context)", name, strings.TrimPrefix(sig.String(), "func"))
		}
	}
	// Whatever else of host.Service returns memory (a version, an item, a
	// snapshot) names its reader too.
	var unnamed []string
	for name, sig := range hs {
		if returnsMemory(sig) && !namesReader(sig) {
			unnamed = append(unnamed, name)
		}
	}
	sort.Strings(unnamed)
	for _, name := range unnamed {
		t.Errorf("host.Service.%s returns memory without naming a reader", name)
	}
	es := methods(t, pkgs[eng], "Engine")
	banned := append([]string{"ReadAs", "GetAs", "HistoryAs", "LinksAs", "LocalAdapter", "Feedback", "Search", "DriftEvent", "EventsAs"}, reads...)
	for _, name := range banned {
		if _, ok := es[name]; ok {
			t.Errorf("engine.Engine.%s: the engine offers a read beside the host's read API", name)
		}
	}
	for _, name := range []string{"MemoryAdapter", "Entry", "SearchQuery", "SearchHit", "ReadNote", "Retrieval", "ScopedSnapshot", "ListOptions"} {
		if pkgs[eng].Scope().Lookup(name) != nil {
			t.Errorf("engine.%s: the MemoryAdapter's types are the host's", name)
		}
	}
}

// namesReader reports whether sig's first parameter after a context is a
// memgov.Reader.
func namesReader(sig *types.Signature) bool {
	ps := sig.Params()
	i := 0
	if ps.Len() > 0 && isNamed(ps.At(0).Type(), "context", "Context") {
		i = 1
	}
	return ps.Len() > i && isNamed(ps.At(i).Type(), module, "Reader")
}

// returnsMemory reports whether sig returns versions, items or a snapshot
// of memory (alone, in a slice or map, or behind a pointer).
func returnsMemory(sig *types.Signature) bool {
	rs := sig.Results()
	for i := 0; i < rs.Len(); i++ {
		ty := rs.At(i).Type()
		for {
			switch u := ty.(type) {
			case *types.Pointer:
				ty = u.Elem()
				continue
			case *types.Slice:
				ty = u.Elem()
				continue
			case *types.Map:
				ty = u.Elem()
				continue
			}
			break
		}
		for _, name := range []string{"Version", "Item", "Snapshot"} {
			if isNamed(ty, module, name) {
				return true
			}
		}
		if isNamed(ty, module+"/host", "ScopedSnapshot") {
			return true
		}
	}
	return false
}
