package instrument

import (
	"os"
	"testing"

	js "github.com/memtrace/memtrace/instrument/js"
)

// TestDebugFile instruments $MT_FILE (goal $MT_GOAL) and prints the result;
// a helper for development, skipped otherwise.
func TestDebugFile(t *testing.T) {
	file := os.Getenv("MT_FILE")
	if file == "" {
		t.Skip("MT_FILE not set")
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	g := js.Script
	switch os.Getenv("MT_GOAL") {
	case "commonjs":
		g = js.CommonJS
	case "module":
		g = js.Module
	}
	res, err := Instrument(src, Options{Goal: g, File: file})
	if err != nil {
		t.Fatal(err)
	}
	if out := os.Getenv("MT_OUT"); out != "" {
		if err := os.WriteFile(out, res.Code, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	os.Stdout.Write(res.Code)
}
