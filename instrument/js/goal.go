package js

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// ParseGoal reads a goal name: "script", "module" or "commonjs".
func ParseGoal(s string) (Goal, bool) {
	switch s {
	case "script":
		return Script, true
	case "module":
		return Module, true
	case "commonjs":
		return CommonJS, true
	}
	return Script, false
}

// GoalOf decides the goal of a file the way Node.js does: .mjs (and
// TypeScript's .mts) is a module, .cjs (.cts) is CommonJS, and a .js file
// (or .ts, .tsx, .jsx) follows the "type" field of the nearest
// package.json ("module" makes it a module, anything else CommonJS). Such
// a file with no package.json above it is a classic script, as a browser
// would load it. Other extensions are scripts. FileGoal also says when
// Node decides by the file's text.
func GoalOf(path string) Goal {
	g, _ := FileGoal(path)
	return g
}

// FileGoal is GoalOf, and whether Node decides the goal by the file's text
// (module syntax detection, on by default since Node 20.19 and 22.7): a .js
// file whose nearest package.json names no "type" ("module" or
// "commonjs"), or that has no package.json above it, runs as an ES module
// when it does not parse as CommonJS but does as a module (its import or
// export declarations, import.meta or top-level await). Such a file's
// goal is CommonJS (a script without a package.json) unless it fails to
// parse so: then, if it parses as a module, Module. Node compiles it as
// CommonJS first, so a file valid either way stays CommonJS.
func FileGoal(path string) (goal Goal, byText bool) {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".mjs", ".mts":
		return Module, false
	case ".cjs", ".cts":
		return CommonJS, false
	case ".js", ".ts", ".tsx", ".jsx":
	default:
		return Script, false
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return Script, false
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		data, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err == nil {
			var pkg struct {
				Type string `json:"type"`
			}
			if json.Unmarshal(data, &pkg) == nil && pkg.Type == "module" {
				return Module, false
			}
			return CommonJS, ext == ".js" && pkg.Type != "commonjs"
		}
		if filepath.Dir(dir) == dir {
			return Script, ext == ".js"
		}
	}
}
