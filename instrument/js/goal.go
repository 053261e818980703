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
// would load it. Other extensions are scripts.
func GoalOf(path string) Goal {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".mjs", ".mts":
		return Module
	case ".cjs", ".cts":
		return CommonJS
	case ".js", ".ts", ".tsx", ".jsx":
	default:
		return Script
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return Script
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		data, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err == nil {
			var pkg struct {
				Type string `json:"type"`
			}
			if json.Unmarshal(data, &pkg) == nil && pkg.Type == "module" {
				return Module
			}
			return CommonJS
		}
		if filepath.Dir(dir) == dir {
			return Script
		}
	}
}
