package serve

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestHandlerAttributes: a page's event handler attributes (onclick with
// this, event and the form's scope; onsubmit returning false) and
// javascript: URLs (one with a percent escape) run instrumented, each a
// script of the trace named PAGE#on<event>-k or PAGE#javascript-k, with
// the results they give untraced.
func TestHandlerAttributes(t *testing.T) {
	want, _, data := tracedAlike(t, filepath.Join("testdata", "handlers"), "JSON.stringify(window.results)")
	if !strings.Contains(want, `"n":2`) || !strings.Contains(want, `"percent":"100%"`) {
		t.Fatalf("the page did not run its handlers: %s", want)
	}
	scripts := map[string]int{}
	for name, k := range scriptNames(data) {
		scripts[name[strings.LastIndex(name, "#")+1:]] += k
	}
	for _, name := range []string{"onsubmit-1", "onclick-2", "javascript-3", "javascript-4"} {
		if scripts[name] == 0 {
			t.Errorf("no script %s in the trace: %v", name, scripts)
		}
	}
	if scripts["onclick-2"] != 2 {
		t.Errorf("the onclick handler ran %d times in the trace, want 2", scripts["onclick-2"])
	}
}
