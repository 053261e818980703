// Package runtimeshim embeds the runtime shim: the JavaScript that serves
// the hooks instrumented code calls (docs/instrumentation.md) and writes the
// memory trace. The shim's sources are runtime-shim/src; shim.js is their
// esbuild bundle, regenerated with go generate and committed, so that a
// plain go build needs no JavaScript tooling.
package runtimeshim

import (
	_ "embed"
	"encoding/json"
	"sync"
)

//go:generate go run ./internal/gen

//go:embed shim.js
var source string

//go:embed shim-browser.js
var browserSource string

// BrowserSource returns the browser bundle: the same core with the
// browser host, a classic script a page loads first (memtrace serve and
// the proxy serve it under /__memtrace__/shim.js).
func BrowserSource() string { return browserSource }

// Source returns the bundled shim, a classic script that installs
// globalThis.__mt once (a second copy of the same version does nothing).
func Source() string { return source }

// EvalFile is the script name of the shim when it is evaluated from a
// string (EvalLiteral), as its stack frames name it.
const EvalFile = "memtrace-shim.js"

var evalLiteral = sync.OnceValue(func() string {
	b, _ := json.Marshal(source + "\n//# sourceURL=" + EvalFile) // one line: \n, \u2028 and \u2029 escaped
	return string(b)
})

// EvalLiteral is the shim as a one-line JavaScript string literal, for
// code that installs it with an indirect eval, `(0,eval)(EvalLiteral())`:
// the statement takes no line of its own (the file keeps its line
// numbers), and the shim runs as sloppy global code whatever the file's
// directives, named EvalFile in stack traces.
func EvalLiteral() string { return evalLiteral() }
