// Package runtimeshim embeds the runtime shim: the JavaScript that serves
// the hooks instrumented code calls (docs/instrumentation.md) and writes the
// memory trace. The shim's sources are runtime-shim/src; shim.js is their
// esbuild bundle, regenerated with go generate and committed, so that a
// plain go build needs no JavaScript tooling.
package runtimeshim

import _ "embed"

//go:generate go run ./internal/gen

//go:embed shim.js
var source string

// Source returns the bundled shim, a classic script that installs
// globalThis.__mt once (a second copy of the same version does nothing).
func Source() string { return source }
