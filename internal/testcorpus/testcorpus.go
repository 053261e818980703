// Package testcorpus locates the shared third-party corpora
// (../shared/corpora beside the repository root) for tests.
//
// A test that needs the corpora calls Dir. When they are missing the test is
// skipped, except under CI=true, where a missing corpus is a failure: CI must
// never pass by skipping.
package testcorpus

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Root returns the repository root (the directory holding go.mod), found by
// walking up from the working directory, or "" if there is none.
func Root() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Dir returns the path of ../shared/corpora/<elem...>, skipping (or, under
// CI=true, failing) the test when it does not exist.
func Dir(tb testing.TB, elem ...string) string {
	tb.Helper()
	root := Root()
	if root == "" {
		Missing(tb, "repository root (go.mod) not found")
	}
	p := filepath.Join(append([]string{root, "..", "shared", "corpora"}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		Missing(tb, "corpus not found: "+p)
	}
	return p
}

// Missing skips the test for a missing prerequisite, or fails it under
// CI=true.
func Missing(tb testing.TB, what string) {
	tb.Helper()
	if os.Getenv("CI") == "true" {
		tb.Fatalf("%s (CI=true: a missing prerequisite is a failure)", what)
	}
	tb.Skipf("%s (skipped; under CI=true this fails)", what)
}

// Chromium returns Debian's chromium for the tests that drive a real
// browser, skipping (or, under CI=true, failing) the test without it.
func Chromium(tb testing.TB) string {
	tb.Helper()
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	Missing(tb, "chromium not found (apt-get install chromium; make test installs it as root)")
	return ""
}

// NPMModules returns the repository's testdata/npm/node_modules (the
// packages `npm ci --prefix testdata/npm` installs), skipping (or, under
// CI=true, failing) the test when one of the named packages is not there.
func NPMModules(tb testing.TB, pkgs ...string) string {
	tb.Helper()
	root := Root()
	if root == "" {
		Missing(tb, "repository root (go.mod) not found")
	}
	dir := filepath.Join(root, "testdata", "npm", "node_modules")
	for _, p := range pkgs {
		if _, err := os.Stat(filepath.Join(dir, p, "package.json")); err != nil {
			Missing(tb, "npm package "+p+" not installed: run npm ci --prefix testdata/npm")
		}
	}
	return dir
}

// JSFiles lists the JavaScript files (.js, .mjs, .cjs) under the corpora,
// sorted, leaving out test262 (which has tests of its own).
func JSFiles(tb testing.TB) []string {
	tb.Helper()
	root := Dir(tb)
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "test262" {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".js") || strings.HasSuffix(path, ".mjs") || strings.HasSuffix(path, ".cjs")) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	sort.Strings(files)
	return files
}
