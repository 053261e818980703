//go:build ignore

// A probe of the instrumenter compiled to WebAssembly (docs/browser.md's
// measure of the run-time code choice): GOOS=js GOARCH=wasm go build.
package main

import (
	"fmt"
	"os"

	"github.com/memtrace/memtrace/instrument"
	"github.com/memtrace/memtrace/instrument/js"
)

func main() {
	res, err := instrument.Instrument([]byte(os.Args[1]), instrument.Options{Goal: js.Script, File: "eval", Eval: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(res.Code))
}
