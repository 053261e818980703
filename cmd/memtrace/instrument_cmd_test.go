package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestInstrumentExclude: a file whose name matches --exclude is copied
// unchanged (no shim, no hooks); the others are instrumented; a later
// !GLOB re-includes; a bad glob is a usage error.
func TestInstrumentExclude(t *testing.T) {
	dir := t.TempDir()
	src := "var o = {a: 1};\n"
	p := filepath.Join(dir, "vendor", "lib.min.js")
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(src), 0o644))

	code, out, errOut := runCmd(t, "", "instrument", "--exclude", "*.min.js", p)
	require.Equal(t, ExitOK, code, errOut)
	require.Equal(t, src, out)

	code, out, _ = runCmd(t, src, "instrument", "--exclude", "vendor", "--name", "vendor/x.js", "-")
	require.Equal(t, ExitOK, code)
	require.Equal(t, src, out)

	dst := filepath.Join(dir, "out.js")
	code, _, errOut = runCmd(t, "", "instrument", "--exclude", "vendor", "-o", dst, p)
	require.Equal(t, ExitOK, code, errOut)
	b, err := os.ReadFile(dst)
	require.NoError(t, err)
	require.Equal(t, src, string(b))

	code, out, _ = runCmd(t, "", "instrument", "--no-shim", "--exclude", "*.min.js", "--exclude", "!**/vendor/lib.min.js", "--all-uses", "--all-putfields", p)
	require.Equal(t, ExitOK, code)
	require.Contains(t, out, "{allUses: true, allPutFields: true}")

	code, _, errOut = runCmd(t, "", "instrument", "--exclude", "[x", p)
	require.Equal(t, ExitUsage, code)
	require.True(t, strings.Contains(errOut, "unclosed character class"), errOut)
}
