package js

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/internal/testcorpus"
)

// test262Meta is what the sample test needs from a test's frontmatter.
type test262Meta struct {
	flags         map[string]bool
	negativeParse bool // negative: phase: parse
	features      []string
}

var (
	frontmatterRE = regexp.MustCompile(`(?s)/\*---(.*?)---\*/`)
	flowListRE    = regexp.MustCompile(`(?m)^(flags|features):\s*\[([^\]]*)\]`)
	phaseRE       = regexp.MustCompile(`(?m)^\s+phase:\s*(\w+)`)
	blockListRE   = regexp.MustCompile(`(?m)^(flags|features):\s*\n((?:\s+-\s*.*\n)+)`)
)

func parseTest262Meta(src []byte) test262Meta {
	m := test262Meta{flags: map[string]bool{}}
	fm := frontmatterRE.FindSubmatch(src)
	if fm == nil {
		return m
	}
	yaml := string(fm[1])
	add := func(key, item string) {
		item = strings.TrimSpace(item)
		if item == "" {
			return
		}
		if key == "flags" {
			m.flags[item] = true
		} else {
			m.features = append(m.features, item)
		}
	}
	for _, l := range flowListRE.FindAllStringSubmatch(yaml, -1) {
		for _, item := range strings.Split(l[2], ",") {
			add(l[1], item)
		}
	}
	for _, l := range blockListRE.FindAllStringSubmatch(yaml, -1) {
		for _, line := range strings.Split(l[2], "\n") {
			add(l[1], strings.TrimPrefix(strings.TrimSpace(line), "- "))
		}
	}
	if i := strings.Index(yaml, "negative:"); i >= 0 {
		if ph := phaseRE.FindStringSubmatch(yaml[i:]); ph != nil && ph[1] == "parse" {
			m.negativeParse = true
		}
	}
	return m
}

// TestTest262Sample parses every test of the shared test262 sample that is
// not a negative syntax test, in its goal: module tests as modules,
// onlyStrict tests with a "use strict" prologue, raw tests as they are.
// Negative syntax tests are reported (the share we reject) but not
// required.
func TestTest262Sample(t *testing.T) {
	dir := testcorpus.Dir(t, "test262")
	f, err := os.Open(filepath.Join(dir, "sample-list.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var total, parsed, negatives, negRejected int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rel := strings.TrimSpace(sc.Text())
		if rel == "" || strings.Contains(rel, "_FIXTURE") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		meta := parseTest262Meta(src)
		goal := Script
		if meta.flags["module"] {
			goal = Module
		}
		if meta.flags["onlyStrict"] && goal == Script {
			src = append([]byte("\"use strict\";\n"), src...)
		}
		_, err = Parse(src, Options{Goal: goal, File: rel})
		if meta.negativeParse {
			negatives++
			if err != nil {
				negRejected++
			} else if os.Getenv("JS_LIST_ACCEPTED") != "" {
				t.Logf("accepted negative test: %s (features %v)", rel, meta.features)
			}
			continue
		}
		total++
		if err != nil {
			t.Errorf("%s (%s, features %v): %v", rel, goal, meta.features, err)
			continue
		}
		parsed++
	}
	t.Logf("test262 sample: %d/%d valid tests parsed; %d/%d negative syntax tests rejected", parsed, total, negRejected, negatives)
}
