// Package bundle builds the runtime shim: it bundles runtime-shim/src with
// esbuild's Go API into one classic script. The go:generate program and the
// freshness test share it, so the committed bundle is exactly what this
// produces.
package bundle

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// Entry is the shim's entry point, relative to the source directory.
const Entry = "index.js"

// Version returns the shim's version: a hash of the names and contents of
// the .js files in srcDir.
func Version(srcDir string) (string, error) {
	names, err := filepath.Glob(filepath.Join(srcDir, "*.js"))
	if err != nil {
		return "", err
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.Base(n), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// Bundle returns the bundled shim built from srcDir and its version.
func Bundle(srcDir string) (js []byte, version string, err error) {
	version, err = Version(srcDir)
	if err != nil {
		return nil, "", err
	}
	abs, err := filepath.Abs(srcDir)
	if err != nil {
		return nil, "", err
	}
	res := api.Build(api.BuildOptions{
		EntryPoints:       []string{filepath.Join(abs, Entry)},
		AbsWorkingDir:     abs,
		Bundle:            true,
		Write:             false,
		Format:            api.FormatIIFE,
		Platform:          api.PlatformNeutral,
		Target:            api.ES2022,
		MinifySyntax:      true,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		LegalComments:     api.LegalCommentsNone,
		Charset:           api.CharsetASCII,
		Define:            map[string]string{"__MT_VERSION__": fmt.Sprintf("%q", version)},
		Banner:            map[string]string{"js": "/* memtrace runtime shim " + version + " (generated from runtime-shim/src; do not edit) */"},
		LogLevel:          api.LogLevelSilent,
		Sourcemap:         api.SourceMapNone,
		TreeShaking:       api.TreeShakingTrue,
		IgnoreAnnotations: false,
	})
	if len(res.Errors) > 0 {
		var b strings.Builder
		for _, m := range api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage}) {
			b.WriteString(m)
		}
		return nil, "", fmt.Errorf("bundling the runtime shim: %s", b.String())
	}
	if len(res.OutputFiles) != 1 {
		return nil, "", fmt.Errorf("bundling the runtime shim: %d output files", len(res.OutputFiles))
	}
	return res.OutputFiles[0].Contents, version, nil
}
