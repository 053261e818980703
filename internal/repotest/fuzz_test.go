package repotest

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/testcorpus"
)

var fuzzFuncRE = regexp.MustCompile(`(?m)^func (Fuzz[A-Za-z0-9_]*)\(`)

// TestMakefileFuzzTargets: `make fuzz` runs every fuzz target of the tree
// (issue 54): the Makefile's FUZZ_TARGETS and the Fuzz functions of the
// test files are the same set.
func TestMakefileFuzzTargets(t *testing.T) {
	root := testcorpus.Root()
	require.NotEmpty(t, root)
	var tree []string
	err := walkGoFiles(root, func(p, pkg string) error {
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range fuzzFuncRE.FindAllSubmatch(src, -1) {
			tree = append(tree, "./"+pkg+"/"+string(m[1]))
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, tree)

	f, err := os.Open(filepath.Join(root, "Makefile"))
	require.NoError(t, err)
	defer f.Close()
	var listed []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "FUZZ_TARGETS :=") {
			in = true
			continue
		}
		if !in {
			continue
		}
		item := strings.TrimSpace(strings.TrimSuffix(line, "\\"))
		if item != "" {
			listed = append(listed, item)
		}
		if !strings.HasSuffix(line, "\\") {
			break
		}
	}
	require.NoError(t, sc.Err())
	sort.Strings(tree)
	sort.Strings(listed)
	assert.Equal(t, tree, listed, "the Makefile's FUZZ_TARGETS and the tree's fuzz targets differ")
}

// walkGoFiles calls fn with each .go file of the tree at root and its
// package's directory relative to root (slash-separated), leaving out
// hidden directories, testdata, node_modules and bin.
func walkGoFiles(root string, fn func(path, pkg string) error) error {
	return filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules" || n == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		return fn(p, filepath.ToSlash(rel))
	})
}
