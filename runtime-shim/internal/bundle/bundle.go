// Package bundle builds the runtime shim: it bundles runtime-shim/src with
// esbuild's Go API into one classic script. The go:generate program and the
// freshness test share it, so the committed bundle is exactly what this
// produces.
package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// Entry is the Node bundle's entry point, relative to the source
// directory: the core (core.js) with the Node host (node/). BrowserEntry
// is the browser bundle's: the same core with the browser host
// (browser/).
const (
	Entry        = "node.js"
	BrowserEntry = "browser.js"
)

// Version returns the shim's version: a hash of the names (relative to
// srcDir) and contents of the .js files under srcDir.
func Version(srcDir string) (string, error) {
	var names []string
	err := filepath.WalkDir(srcDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".js") {
			names = append(names, p)
		}
		return err
	})
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
		rel, err := filepath.Rel(srcDir, n)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// Bundle returns the Node bundle built from srcDir and its version.
func Bundle(srcDir string) (js []byte, version string, err error) {
	return BundleEntry(srcDir, Entry)
}

// BundleEntry returns the bundle of the entry point entry and the shim's
// version (one for both bundles: a hash of every source).
func BundleEntry(srcDir, entry string) (js []byte, version string, err error) {
	version, err = Version(srcDir)
	if err != nil {
		return nil, "", err
	}
	abs, err := filepath.Abs(srcDir)
	if err != nil {
		return nil, "", err
	}
	res := api.Build(api.BuildOptions{
		EntryPoints:       []string{filepath.Join(abs, entry)},
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
		// No template literals: esbuild writes a string with a line break as
		// a template literal with a raw one, which splits the bundle into
		// lines; the bundle is one line of code, which ends with NoArrowMark.
		Supported: map[string]bool{"template-literal": false},
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
	code := res.OutputFiles[0].Contents
	if bytes.Contains(code, []byte(`"".concat(`)) {
		// A template literal with substitutions, lowered: the program can
		// replace String.prototype.concat, and the shim captures what it uses.
		return nil, "", fmt.Errorf("bundling the runtime shim: a template literal with substitutions in src/ (lowered to String.prototype.concat); convert with a captured native")
	}
	// The banner's line, then the code's: one line, marked.
	nl := bytes.IndexByte(code, '\n')
	if nl < 0 || len(code) == nl+1 || bytes.IndexByte(code[nl+1:len(code)-1], '\n') >= 0 || code[len(code)-1] != '\n' {
		return nil, "", fmt.Errorf("bundling the runtime shim: the code is not one line")
	}
	out := make([]byte, 0, len(code)+len(NoArrowMark))
	out = append(out, code[:len(code)-1]...)
	out = append(out, NoArrowMark...)
	out = append(out, '\n')
	return out, version, nil
}

// NoArrowMark ends the shim's line of code. Above an uncaught error Node
// prints the source line where it was thrown, unless that line contains
// "node-do-not-add-exception-line": errors the shim throws for the program
// (a call hook's "o.f is not a function", a native's error inside a hook)
// are located in the shim, and Node printed its whole line of code (about
// 80 KB) above the program's stack.
const NoArrowMark = "/* node-do-not-add-exception-line */"
