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

	// Whether Node decides by the text (module syntax detection): .js
	// files under a package.json without "type", or under none.
	write("typed/package.json", `{"type": "commonjs"}`)
	for _, c := range []struct {
		rel    string
		goal   Goal
		byText bool
	}{
		{"cjs/a.js", CommonJS, true},
		{"bad/a.js", CommonJS, true},
		{"typed/a.js", CommonJS, false},
		{"esm/a.js", Module, false},
		{"cjs/a.cjs", CommonJS, false},
		{"cjs/a.mjs", Module, false},
		{"cjs/a.ts", CommonJS, false},
	} {
		goal, byText := FileGoal(write(c.rel, ""))
		assert.Equal(t, c.goal, goal, c.rel)
		assert.Equal(t, c.byText, byText, c.rel)
	}
	// Outside any package: a script, Node's to decide (when no parent of
	// the temporary directory holds a package.json).
	loose := filepath.Join(t.TempDir(), "a.js")
	require.NoError(t, os.WriteFile(loose, nil, 0o644))
	inPackage := false
	for d := filepath.Dir(loose); ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "package.json")); err == nil {
			inPackage = true
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if !inPackage {
		goal, byText := FileGoal(loose)
		assert.Equal(t, Script, goal)
		assert.True(t, byText)
	}

	g, ok := ParseGoal("commonjs")
	assert.True(t, ok)
	assert.Equal(t, CommonJS, g)
	_, ok = ParseGoal("esm")
	assert.False(t, ok)
}
