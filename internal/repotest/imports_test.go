package repotest

import (
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/testcorpus"
)

const module = "github.com/memtrace/memtrace/"

// importRules are docs/architecture.md's rules: for each package of the
// tree (by its path in the module), the packages of the module its
// non-test files may import. A package the table does not name fails the
// test until it is given its rule (and its paragraph in the document).
var importRules = map[string][]string{
	"trace":                        {},
	"trace/tracegen":               {"trace"},
	"tracedir":                     {"internal/safefs", "internal/directio"},
	"lifetime":                     {"trace", "internal/safefs"},
	"instrument/diag":              {},
	"instrument/js":                {"instrument/diag"},
	"instrument/scope":             {"instrument/js"},
	"instrument":                   {"instrument/js", "instrument/scope", "instrument/diag", "trace", "internal/testswitch"},
	"instrument/ondemand":          {"instrument", "instrument/js", "internal/glob"},
	"instrument/semantics":         {},
	"runtime-shim":                 {},
	"runtime-shim/internal/bundle": {},
	"runtime-shim/internal/gen":    {"runtime-shim/internal/bundle"},
	"noderun": {"instrument", "instrument/js", "instrument/ondemand", "lifetime", "runtime-shim", "trace", "tracedir",
		"internal/directio", "internal/glob", "internal/safefs"},
	"collector":                 {"trace", "tracedir", "lifetime", "internal/safefs", "internal/directio", "report"},
	"report":                    {"lifetime", "tracedir", "internal/safefs", "internal/directio"},
	"report/internal/gen":       {"report/internal/webbundle"},
	"report/internal/webbundle": {},
	"collector/client":          {},
	"instrument/htmlpage":       {"instrument/js"},
	"serve":                     {"collector", "instrument/htmlpage", "instrument/js", "internal/safefs", "web"},
	"web":                       {"collector", "instrument", "instrument/htmlpage", "instrument/js", "instrument/ondemand", "internal/safefs", "runtime-shim"},
	"project":                   {"instrument", "instrument/diag", "instrument/htmlpage", "instrument/js", "runtime-shim", "internal/glob", "internal/safefs"},
	"internal/deepjs":           {},
	"internal/directio":         {},
	"internal/gctune":           {},
	"internal/glob":             {},
	"internal/memtracebin":      {"internal/testcorpus"},
	"internal/repotest":         {},
	"internal/safefs":           {},
	"internal/testcorpus":       {},
	"internal/testswitch":       {},
	"internal/flakynet":         {},
	"proxy/ca":                  {"internal/safefs"},
	"proxy/body":                {},
	"proxy":                     {"collector", "instrument/htmlpage", "instrument/js", "proxy/body", "proxy/ca", "tracedir", "web"},
	"internal/pagetest":         {"collector", "internal/testcorpus", "internal/todomvc", "lifetime", "trace", "tracedir"},
	"internal/todomvc":          {},
	// The CLI and the bench put the pieces together: anything but each other.
	"cmd/memtrace": {"*"},
	"bench":        {"*"},
}

// TestImportRules: no package imports across the rules docs/architecture.md
// states (issue 55): lifetime reads traces and nothing else of the
// pipeline, no package under instrument/ imports a host (noderun, project,
// the CLI), the trace directory's package knows no engine, and so on.
func TestImportRules(t *testing.T) {
	root := testcorpus.Root()
	require.NotEmpty(t, root)
	imports := map[string]map[string]bool{} // package -> module imports
	fset := token.NewFileSet()
	err := walkGoFiles(root, func(p, pkg string) error {
		if strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		if imports[pkg] == nil {
			imports[pkg] = map[string]bool{}
		}
		for _, is := range f.Imports {
			path, _ := strconv.Unquote(is.Path.Value)
			if strings.HasPrefix(path, module) {
				imports[pkg][strings.TrimPrefix(path, module)] = true
			}
		}
		return nil
	})
	require.NoError(t, err)
	var pkgs []string
	for p := range imports {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		allowed, ok := importRules[pkg]
		if !ok {
			t.Errorf("%s has no import rule: give it one here and in docs/architecture.md", pkg)
			continue
		}
		if len(allowed) == 1 && allowed[0] == "*" {
			continue
		}
		may := map[string]bool{}
		for _, a := range allowed {
			may[a] = true
		}
		for imp := range imports[pkg] {
			if !may[imp] {
				t.Errorf("%s imports %s, which its rule does not allow (docs/architecture.md)", pkg, imp)
			}
		}
	}
	for pkg := range importRules {
		if _, ok := imports[pkg]; !ok {
			t.Errorf("the rules name %s, which has no Go files any more", pkg)
		}
	}
}
