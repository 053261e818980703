package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/testcorpus"
)

func TestLifetimeMeminsightFormat(t *testing.T) {
	dir := testcorpus.Dir(t, "meminsight")
	for _, name := range []string{"testRefCount1", "testRefCount42", "htmlTest7"} {
		want, err := os.ReadFile(filepath.Join(dir, "expected-engine", name+".expected"))
		require.NoError(t, err)
		code, out, errOut := runCmd(t, "", "lifetime", filepath.Join(dir, "traces", name+".mem-trace"))
		require.Equal(t, ExitOK, code, errOut)
		assert.Equal(t, strings.TrimSpace(string(want)), strings.TrimSpace(out), name)
		assert.Empty(t, errOut, "no progress bar off a terminal")
	}
}

func TestLifetimeErrors(t *testing.T) {
	data, err := os.ReadFile(corpusTrace(t, "testRefCount1"))
	require.NoError(t, err)
	code, _, errOut := runCmd(t, string(data[:200]), "lifetime", "-")
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, errOut, "<stdin>: lifetime: entry 9 at byte offset 197: truncated SOURCE_MAPPING entry")

	code, _, errOut = runCmd(t, "", "lifetime", "--format", "nope", "x")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, errOut, `unknown --format "nope"`)
}
