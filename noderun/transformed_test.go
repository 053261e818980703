package noderun_test

import "testing"

// TestTransformedModuleText: a module compiled from text a loader changed
// (pirates, @babel/register, ts-node: Module._extensions['.js'] calls
// module._compile with its own text), and a module compiled under a name
// with no file, show that text: Function.prototype.toString and stack
// positions come from the text compiled, as in plain node. The shim read
// the file from the disk, found it did not match, and gave the
// instrumented text and its columns.
func TestTransformedModuleText(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.js": `const Module = require('module');
const fs = require('fs');
// A loader of the kind of pirates or @babel/register: the .js handler
// compiles the file's text changed.
const orig = Module._extensions['.js'];
Module._extensions['.js'] = function (mod, filename) {
  if (!filename.endsWith('lib.js')) return orig(mod, filename);
  const code = fs.readFileSync(filename, 'utf8').replace('__GREETING__', JSON.stringify('hello, transformed world'));
  mod._compile(code, filename);
};
const lib = require('./lib.js');
console.log(lib.greet.toString());
console.log(lib.greet());
const v = new Module('/nonexistent/virtual.js', module);
v._compile('module.exports = function named() { return new Error().stack.split("\\n")[1]; };', '/nonexistent/virtual.js');
console.log(v.exports.toString());
console.log(v.exports().replace(__dirname, '.'));
`, "lib.js": "exports.greet = function greet() { const g = __GREETING__; return g + ' ' + new Error().stack.split('\\n')[1].replace(__dirname, '.'); };\n"})
	plainThenTraced(t, dir, "main.js", "function greet() { const g = \"hello, transformed world\"; return g + ' ' + new Error().stack.split('\\n')[1].replace(__dirname, '.'); }\nhello, transformed world     at Object.greet (./lib.js:1:91)\nfunction named() { return new Error().stack.split(\"\\n\")[1]; }\n    at Module.named [as exports] (/nonexistent/virtual.js:1:44)\n")
}
