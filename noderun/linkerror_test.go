package noderun_test

import "testing"

// TestFailedLinkOnFirstLine: an ES module that imports, on its first line,
// a name the other module does not export fails to link with Node's
// SyntaxError. Node's loader reads the importing module's URL from the
// "file:line" header it puts above the source line in the error's stack;
// the first line of an instrumented file was marked so that Node prints
// no source line there (the prologue's), hence no header, and the loader
// threw its own TypeError (Failed to resolve module specifier ... from
// "SyntaxError: ...") instead. An import on a later line, and a re-export
// on the first, for comparison.
func TestFailedLinkOnFirstLine(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"e.mjs":     "export const a = 1;\n",
		"first.mjs": "import { nope } from './e.mjs';\nconsole.log(nope);\n",
		"later.mjs": "// a comment\nimport { nope } from './e.mjs';\n",
		"again.mjs": "export { nope } from './e.mjs';\n",
		"main.mjs": "for (const m of ['./first.mjs', './later.mjs', './again.mjs']) {\n" +
			"  try { await import(m); } catch (e) { console.log(m, e.name + ': ' + e.message); }\n}\n",
	})
	const msg = "SyntaxError: The requested module './e.mjs' does not provide an export named 'nope'\n"
	plainThenTraced(t, dir, "main.mjs", "./first.mjs "+msg+"./later.mjs "+msg+"./again.mjs "+msg)
}
