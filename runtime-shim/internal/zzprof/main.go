package main

import (
	"os"
	"path/filepath"

	"github.com/evanw/esbuild/pkg/api"
)

func main() {
	abs, _ := filepath.Abs("runtime-shim/src")
	res := api.Build(api.BuildOptions{
		EntryPoints: []string{filepath.Join(abs, "index.js")}, AbsWorkingDir: abs, Bundle: true, Write: false,
		Format: api.FormatIIFE, Platform: api.PlatformNeutral, Target: api.ES2022,
		MinifySyntax: true, MinifyWhitespace: true, MinifyIdentifiers: len(os.Args) > 2,
		Define: map[string]string{"__MT_VERSION__": `"prof"`}, Supported: map[string]bool{"template-literal": false},
	})
	if len(res.Errors) > 0 {
		panic(res.Errors[0].Text)
	}
	os.WriteFile(os.Args[1], res.OutputFiles[0].Contents, 0o644)
}
