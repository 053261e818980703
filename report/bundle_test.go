package report

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memtrace/memtrace/report/internal/webbundle"
)

// TestBundleFresh: the committed bundles (web/dist, embedded) are what
// web/src builds to now, so that nobody ships a page whose sources say
// otherwise. It needs web/node_modules (uPlot): without it the test skips,
// and fails under CI.
func TestBundleFresh(t *testing.T) {
	if _, err := os.Stat(filepath.Join("web", "node_modules", "uplot", "package.json")); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("report/web/node_modules is missing (%v): run npm ci --prefix report/web", err)
		}
		t.Skip("report/web/node_modules is missing: run npm ci --prefix report/web to check the bundle")
	}
	js, css, err := webbundle.Build("web")
	if err != nil {
		t.Fatal(err)
	}
	if string(js) != string(bundleJS) {
		t.Errorf("web/dist/report.js is stale (%d bytes committed, %d built): run go generate ./report", len(bundleJS), len(js))
	}
	if string(css) != string(bundleCSS) {
		t.Errorf("web/dist/report.css is stale (%d bytes committed, %d built): run go generate ./report", len(bundleCSS), len(css))
	}
	// The build is deterministic: a second one gives the same bytes.
	js2, css2, err := webbundle.Build("web")
	if err != nil {
		t.Fatal(err)
	}
	if string(js2) != string(js) || string(css2) != string(css) {
		t.Error("two builds of web/src differ")
	}
}
