package scope

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/testcorpus"
)

// TestCapturedAgainstEslintScope: for every function in the corpora, the
// captured-name set contains every name eslint-scope says the function (or
// a function nested in it) reads or writes from an enclosing function,
// module or CommonJS scope.
func TestCapturedAgainstEslintScope(t *testing.T) {
	files := testcorpus.JSFiles(t)
	root := testcorpus.Root()
	if _, err := os.Stat(filepath.Join(root, "testdata", "npm", "node_modules", "eslint-scope")); err != nil {
		testcorpus.Missing(t, "eslint-scope not installed; run: npm ci --prefix testdata/npm")
	}
	if _, err := exec.LookPath("node"); err != nil {
		testcorpus.Missing(t, "node not found")
	}
	cmd := exec.Command("node", append([]string{filepath.Join(root, "testdata", "npm", "freevars.js")}, files...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() {
		cmd.Process.Kill() // a failed assertion must not leave node blocked on a full pipe
		cmd.Wait()
	}()
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<30)
	var nFiles, nFuncs, nNames, extra int
	for sc.Scan() {
		var rec struct {
			File  string
			Goal  string
			Error string
			Funcs [][3]json.RawMessage
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec))
		if rec.Error != "" {
			continue // not JavaScript (JSX sources): the parser's tests cover these
		}
		src, err := os.ReadFile(rec.File)
		require.NoError(t, err)
		goal := map[string]js.Goal{"script": js.Script, "commonjs": js.CommonJS, "module": js.Module}[rec.Goal]
		p, err := js.Parse(src, js.Options{Goal: goal, File: rec.File})
		require.NoError(t, err)
		in := Analyze(p)
		bySpan := map[[2]int32]*Func{}
		for _, f := range in.Funcs {
			bySpan[[2]int32{f.Node.Pos(), f.Node.EndPos()}] = f
		}
		nFiles++
		for _, raw := range rec.Funcs {
			var want struct {
				Start, End int32
				Names      []string
			}
			require.NoError(t, json.Unmarshal(raw[0], &want.Start))
			require.NoError(t, json.Unmarshal(raw[1], &want.End))
			require.NoError(t, json.Unmarshal(raw[2], &want.Names))
			f := bySpan[[2]int32{want.Start, want.End}]
			if f == nil {
				t.Errorf("%s: no function at %d-%d", rec.File, want.Start, want.End)
				continue
			}
			nFuncs++
			have := map[string]bool{}
			for _, n := range f.Captured {
				have[n] = true
			}
			for _, n := range want.Names {
				nNames++
				if !have[n] {
					t.Errorf("%s: function at %d-%d (%.40q): captures %q according to eslint-scope, not in %v",
						rec.File, want.Start, want.End, src[want.Start:want.End], n, f.Captured)
				}
			}
			extra += len(f.Captured) - len(want.Names)
		}
	}
	require.NoError(t, sc.Err())
	require.Greater(t, nFiles, 100, "corpus files compared")
	t.Logf("%d files, %d functions, %d captured names checked against eslint-scope; %d extra names of ours", nFiles, nFuncs, nNames, extra)
}
