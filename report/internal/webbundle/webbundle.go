// Package webbundle builds the report page's front-end: it bundles
// report/web/src (our code, uPlot and its CSS from report/web/node_modules)
// with esbuild's Go API into one classic script and one style sheet, which
// the report inlines. The go:generate program and the freshness test share
// it, so the committed report/web/dist is exactly what this produces.
package webbundle

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// Entry is the bundle's entry point, relative to the web directory.
const Entry = "src/main.js"

// Banners: the bundles say what they are; uPlot's copyright notice (MIT)
// travels with its code, since its own comment is not a legal comment
// esbuild keeps.
const (
	jsBanner  = "/* memtrace report page (generated from report/web by report/internal/gen; do not edit). Includes uPlot v1.6.32, (c) 2025 Leon Sorokin, MIT License, https://github.com/leeoniya/uPlot */"
	cssBanner = "/* memtrace report page (generated from report/web by report/internal/gen; do not edit). Includes uPlot's style sheet, (c) 2025 Leon Sorokin, MIT License */"
)

// Build bundles webDir's entry point and returns the script (an IIFE,
// minified) and the style sheet (ours and uPlot's, minified). The output
// depends only on the sources: the same files give the same bytes.
func Build(webDir string) (js, css []byte, err error) {
	abs, err := filepath.Abs(webDir)
	if err != nil {
		return nil, nil, err
	}
	res := api.Build(api.BuildOptions{
		EntryPoints:       []string{filepath.Join(abs, filepath.FromSlash(Entry))},
		AbsWorkingDir:     abs,
		Outdir:            filepath.Join(abs, "dist"),
		EntryNames:        "report",
		Bundle:            true,
		Write:             false,
		Format:            api.FormatIIFE,
		Platform:          api.PlatformBrowser,
		Target:            api.ES2019,
		MinifySyntax:      true,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		LegalComments:     api.LegalCommentsNone,
		Charset:           api.CharsetASCII,
		Banner:            map[string]string{"js": jsBanner, "css": cssBanner},
		Loader:            map[string]api.Loader{".css": api.LoaderCSS},
		LogLevel:          api.LogLevelSilent,
		Sourcemap:         api.SourceMapNone,
		TreeShaking:       api.TreeShakingTrue,
	})
	if len(res.Errors) > 0 {
		var b strings.Builder
		for _, m := range api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage}) {
			b.WriteString(m)
		}
		return nil, nil, fmt.Errorf("bundling the report page: %s", b.String())
	}
	if len(res.Warnings) > 0 {
		var b strings.Builder
		for _, m := range api.FormatMessages(res.Warnings, api.FormatMessagesOptions{Kind: api.WarningMessage}) {
			b.WriteString(m)
		}
		return nil, nil, fmt.Errorf("bundling the report page: warnings: %s", b.String())
	}
	for _, f := range res.OutputFiles {
		switch filepath.Base(f.Path) {
		case "report.js":
			js = f.Contents
		case "report.css":
			css = f.Contents
		default:
			return nil, nil, fmt.Errorf("bundling the report page: an unexpected output file %s", f.Path)
		}
	}
	if js == nil || css == nil {
		return nil, nil, fmt.Errorf("bundling the report page: %d output files, want report.js and report.css", len(res.OutputFiles))
	}
	if err := checkInline(js, css); err != nil {
		return nil, nil, err
	}
	return js, css, nil
}

// evalCall finds code compiled from a string at run time: eval(...),
// Function(...), new Function (not a method such as x.isFunction(...)).
var evalCall = regexp.MustCompile(`(^|[^\w$.])(eval|Function)\s*\(|\bnew\s+Function\b`)

// checkInline makes sure the bundles can be inlined: the script in a
// <script> element, the sheet in a <style> one, under a policy without
// 'unsafe-eval'.
func checkInline(js, css []byte) error {
	ljs, lcss := bytes.ToLower(js), bytes.ToLower(css)
	for _, bad := range []string{"</script", "<!--", "<script"} {
		if bytes.Contains(ljs, []byte(bad)) {
			return fmt.Errorf("bundling the report page: the script contains %q, which would end or confuse its <script> element", bad)
		}
	}
	if bytes.Contains(lcss, []byte("</style")) {
		return fmt.Errorf("bundling the report page: the style sheet contains \"</style\"")
	}
	if m := evalCall.Find(js); m != nil {
		return fmt.Errorf("bundling the report page: the script contains %q, which the page's policy forbids", m)
	}
	if bytes.Contains(lcss, []byte("@import")) || bytes.Contains(lcss, []byte("url(http")) {
		return fmt.Errorf("bundling the report page: the style sheet loads something, which the page's policy forbids")
	}
	return nil
}
