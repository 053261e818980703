package serve

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/internal/todomvc"
	"github.com/memtrace/memtrace/trace"
	"github.com/memtrace/memtrace/tracedir"
)

// TestTodoMVC: each of the three TodoMVC apps (ES modules, jQuery, a
// React bundle), served as built and through memtrace serve, goes through
// the same scripted session (add three todos, complete one, filter,
// delete one, clear the completed): after each step the app shows the same
// text instrumented as not, no page error is thrown, and the trace
// arrives complete at the collector.
func TestTodoMVC(t *testing.T) {
	for app, script := range map[string]string{"javascript-es6": "/app.bundle.js", "jquery": "/app.js", "react": "/app.bundle.js"} {
		t.Run(app, func(t *testing.T) {
			dir := testcorpus.Dir(t, "todomvc", app, "dist")
			plain := httptest.NewServer(http.FileServer(http.Dir(dir)))
			defer plain.Close()
			want := runTodo(t, plain.URL+"/index.html", nil)
			s := startServe(t, dir)
			got := runTodo(t, s.url+"/index.html", want)
			for i := range todomvc.Steps {
				if got[i] != want[i] {
					t.Errorf("%s, after %q: the instrumented app shows\n%q\nthe app shows\n%q", app, todomvc.Steps[i].Name, got[i], want[i])
				}
			}
			sessions := waitSessions(t, s.c, 1)
			if sessions[0].Status != tracedir.StatusComplete {
				t.Errorf("%s: the session ended %s: %s", app, sessions[0].Status, sessions[0].Reason)
			}
			// The app's own script ran instrumented.
			data, err := os.ReadFile(filepath.Join(s.c.Out(), s.c.Sessions()[0], tracedir.TraceFile))
			if err != nil {
				t.Fatal(err)
			}
			r := trace.NewReader(bytes.NewReader(data))
			var names []string
			for {
				e, err := r.Next()
				if err != nil {
					break
				}
				if e.Kind == trace.ScriptEnter {
					names = append(names, e.Name)
				}
			}
			if !slices.Contains(names, script) {
				t.Errorf("%s: the trace enters %v, not %s", app, names, script)
			}
			t.Logf("%s: %d steps alike, trace %d bytes, scripts %v", app, len(todomvc.Steps), sessions[0].Bytes, names)
		})
	}
}
