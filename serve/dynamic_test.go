package serve

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDynamicCode: code a page sets at run time (an event handler
// attribute by setAttribute, clicked twice; classic script elements
// inserted with their text, one inside a fragment; a module script
// element; a handler attribute in HTML written with innerHTML) runs
// instrumented, through the instrument service, each a script of the
// trace, with the results it gives untraced.
func TestDynamicCode(t *testing.T) {
	want, _, data := tracedAlike(t, filepath.Join("testdata", "dynamic"), "JSON.stringify(window.results)")
	if !strings.Contains(want, `"module":{"meta":"object"}`) || !strings.Contains(want, `"n":2`) || !strings.Contains(want, `"inner":{"ok":"ih"}`) {
		t.Fatalf("untraced, the page gives %s", want)
	}
	kinds := map[string]int{}
	inner := false
	for name, k := range scriptNames(data) {
		if strings.Contains(name, "-dyn") {
			kinds[name[strings.LastIndex(name, "#")+1:strings.LastIndex(name, "-dyn")]] += k
		}
		inner = inner || strings.Contains(name, "#html-") && strings.HasSuffix(name, "#onclick-1")
	}
	if kinds["onclick"] != 2 || kinds["script"] != 3 {
		t.Fatalf("scripts made at run time in the trace: %v (want onclick 2, script 3)", kinds)
	}
	if !inner {
		t.Fatalf("the handler in HTML written with innerHTML did not run instrumented")
	}
}

// TestDocumentWrite: HTML a page writes with document.write while it is
// parsed (a script element, a handler attribute) is rewritten by the
// server before the parser reads it: the written script and the handler
// run instrumented, scripts of the trace named PAGE#write-N#..., with the
// page's untraced results.
func TestDocumentWrite(t *testing.T) {
	want, _, data := tracedAlike(t, filepath.Join("testdata", "write"), "JSON.stringify(window.results)")
	if !strings.Contains(want, `"made":2`) || !strings.Contains(want, `"clicked":{"ok":true}`) {
		t.Fatalf("untraced, the page gives %s", want)
	}
	names := scriptNames(data)
	if names["/index.html#write-1#inline-1"] == 0 || names["/index.html#write-2#onclick-1"] == 0 {
		t.Fatalf("the trace's scripts: %v", names)
	}
}
