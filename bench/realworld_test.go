package main

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/internal/testcorpus"
)

// TestRealWorldWorkloads: each workload of the realworld group, at a small
// scale (one repetition), computes under memtrace node, full and compact,
// what it computes under plain node, and leaves a complete trace; its
// digest tells runs of different work apart (the comparison can fail).
func TestRealWorldWorkloads(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		testcorpus.Missing(t, "node not found")
	}
	npm := testcorpus.NPMModules(t, "acorn", "lodash", "marked", "js-yaml", "handlebars", "cheerio", "ajv", "zod", "immutable",
		"typescript", "rxjs", "@babel/core", "@babel/preset-env", "ws", "prettier", "terser")
	bin := memtracebin.Path(t)
	script := filepath.Join(testcorpus.Root(), "bench", "realworld", "workloads.js")
	for _, w := range realWorkloads {
		t.Run(w, func(t *testing.T) {
			dir := t.TempDir()
			plain, full, compact, err := realWorldCompare(w, "0.01", 1, bin, script, npm, dir)
			require.NoError(t, err)
			assert.Len(t, plain.digest, 64, "a sha256 digest")
			for _, r := range []realWorldRun{full, compact} {
				assert.Equal(t, "complete", r.status)
				assert.Positive(t, r.entries)
			}
			assert.Less(t, compact.bytes, full.bytes, "compact leaves entries out")
			more, err := realWorldMeasure(w, "0.5", 1, bin, script, npm, dir, "")
			require.NoError(t, err)
			assert.NotEqual(t, plain.digest, more.digest, "more repetitions, the same digest")
		})
	}
}
