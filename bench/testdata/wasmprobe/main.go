//go:build ignore

// A probe of the instrumenter compiled to WebAssembly (the measure of the
// run-time code choice, docs/instrument-service.md): GOOS=js GOARCH=wasm
// go build -o inst.wasm bench/testdata/wasmprobe/main.go.
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
