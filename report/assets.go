package report

import _ "embed"

// The page's front-end: report/web/src bundled with uPlot by
// internal/gen (go generate; it needs npm ci --prefix report/web), and
// committed, so that a plain go build needs no JavaScript tooling.
// TestBundleFresh checks that the committed bundles are what the sources
// build to.

//go:generate go run ./internal/gen

// bundleJS is the page's script, an IIFE to inline in a <script> element.
//
//go:embed web/dist/report.js
var bundleJS string

// bundleCSS is the page's style sheet (ours and uPlot's), to inline in a
// <style> element.
//
//go:embed web/dist/report.css
var bundleCSS string
