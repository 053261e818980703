package js

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGoalOf(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, data string) string {
		p := filepath.Join(dir, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
		return p
	}
	write("esm/package.json", `{"type": "module"}`)
	write("cjs/package.json", `{"name": "x"}`)
	write("bad/package.json", `{`)
	assert.Equal(t, Module, GoalOf(write("esm/a.js", "")))
	assert.Equal(t, Module, GoalOf(write("esm/deep/er/a.js", "")))
	assert.Equal(t, CommonJS, GoalOf(write("esm/a.cjs", "")))
	assert.Equal(t, CommonJS, GoalOf(write("cjs/a.js", "")))
	assert.Equal(t, Module, GoalOf(write("cjs/a.mjs", "")))
	assert.Equal(t, CommonJS, GoalOf(write("bad/a.js", "")))
	assert.Equal(t, Script, GoalOf(write("cjs/a.txt", "")))
	g, ok := ParseGoal("commonjs")
	assert.True(t, ok)
	assert.Equal(t, CommonJS, g)
	_, ok = ParseGoal("esm")
	assert.False(t, ok)
}
