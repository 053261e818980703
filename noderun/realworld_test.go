package noderun_test

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/lifetime"
	"github.com/memtrace/memtrace/noderun"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
	"github.com/memtrace/memtrace/trace"
)

// realWorldPackages are the packages the programs of testdata/realworld
// load (from testdata/npm).
var realWorldPackages = []string{"ajv", "bluebird", "chalk", "cheerio", "core-js", "express", "handlebars", "immer",
	"immutable", "js-yaml", "marked", "mobx", "rxjs", "uuid", "ws", "yargs", "zod",
	"prettier", "terser", "@babel/core", "@babel/preset-env", "typescript"}

// TestRealWorld (testdata/realworld/README.md): programs built on widely
// used npm packages give the same output and exit status under memtrace
// node as under plain node, every module of the packages instrumented as
// it loads, and traces that pass trace check with no warning and no
// activation left open, which the lifetime engine reads.
func TestRealWorld(t *testing.T) {
	needNode(t)
	modules := testcorpus.NPMModules(t, realWorldPackages...)
	root := testcorpus.Root()
	progs, err := filepath.Glob(filepath.Join(root, "testdata", "realworld", "*.*js"))
	require.NoError(t, err)
	require.Len(t, progs, 12)
	bin := memtracebin.Path(t)
	for _, p := range progs {
		name := filepath.Base(p)
		t.Run(strings.TrimSuffix(name, filepath.Ext(name)), func(t *testing.T) {
			src, err := os.ReadFile(p)
			require.NoError(t, err)
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "package.json"), []byte("{}\n"), 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), src, 0o644))
			require.NoError(t, os.Symlink(modules, filepath.Join(dir, "node_modules")))

			plain := exec.Command("node", name)
			plain.Dir = dir
			var want, wantErr bytes.Buffer
			plain.Stdout, plain.Stderr = &want, &wantErr
			require.NoError(t, plain.Run(), wantErr.String())

			var stdout, stderr bytes.Buffer
			code, err := noderun.Run(noderun.Options{Script: name, OutDir: filepath.Join(dir, "out"),
				Memtrace: bin, Shim: runtimeshim.Source(), Dir: dir, Stdout: &stdout, Stderr: &stderr})
			require.NoError(t, err)
			require.Equal(t, 0, code, stderr.String())
			require.Equal(t, want.String(), stdout.String())
			assert.NotContains(t, stderr.String(), "runs uninstrumented", "every module instrumented")

			// Read from the file, twice: tools.js writes 1.6 GB.
			tracePath := filepath.Join(dir, "out", "mem-trace")
			f, err := os.Open(tracePath)
			require.NoError(t, err)
			defer f.Close()
			rep, err := trace.Check(bufio.NewReaderSize(f, 1<<20), 10)
			require.NoError(t, err)
			assert.True(t, rep.OK(), "trace check: %v", rep.Findings)
			assert.Zero(t, rep.Warnings, "trace check: %v", rep.Findings)
			assert.Zero(t, rep.OpenFrames, "activations left open")
			_, err = f.Seek(0, io.SeekStart)
			require.NoError(t, err)
			require.NoError(t, lifetime.Analyze(bufio.NewReaderSize(f, 1<<20), lifetime.Options{}, lifetime.NopListener{}))
			t.Logf("%d entries", rep.Entries)
		})
	}
}
