package noderun_test

import "testing"

// processProgram looks at what memtrace node could add to the process:
// listeners (the shim's end of trace and its close of scripts left open
// by an exception went through process.on), the modules in require.cache
// (the preload's), process.env (memtrace node's variables, its
// NODE_OPTIONS), a child's environment, require.extensions (the TypeScript ones, which a
// JavaScript program does not get), the MaxListenersExceeded warning a program gets at its
// eleventh 'exit' listener, and what removing every listener leaves.
const processProgram = `const events = ['exit', 'uncaughtException', 'uncaughtExceptionMonitor', 'unhandledRejection', 'SIGINT', 'beforeExit', 'warning'];
console.log(events.map((e) => e + ':' + process.listenerCount(e)).join(' '));
console.log(process.eventNames().join(','), Object.keys(require.cache).map((k) => k.slice(k.lastIndexOf('/') + 1)).join(','));
console.log(Object.keys(process).includes('emit'), process.listeners('exit').length, process.rawListeners('exit').length,
  Object.keys(require.extensions).join());
console.log(Object.keys(process.env).filter((k) => /^MEMTRACE_(OUT|BIN|PARENT|CHILDREN|STATUS)$|^NODE_OPTIONS$/.test(k)).join(), process.env.NODE_OPTIONS);
const kid = require('child_process').spawnSync(process.execPath, ['-e', 'console.log(typeof process.env.MEMTRACE_OUT, process.env.NODE_OPTIONS)'], { encoding: 'utf8' });
console.log('child:', kid.stdout.trim());
process.on('warning', (w) => console.log('warning', w.name));
for (let i = 0; i < 10; i++) process.on('exit', () => {});
process.removeAllListeners('exit');
process.removeAllListeners('uncaughtExceptionMonitor');
const kept = { tag: 'kept' };
globalThis.kept = kept;
process.on('exit', (code) => console.log('exit', code, process.listenerCount('exit'), kept.tag));
setTimeout(() => { for (let i = 0; i < 10; i++) process.on('exit', () => {}); }, 1);
`

// TestProcessUnchanged: the process the program sees has the listeners
// and cached modules of a plain run, and the trace still ends (it passes
// trace check with its final last-use block) after the program removes
// every 'exit' listener.
func TestProcessUnchanged(t *testing.T) {
	runDifferential(t, "process.js", processProgram)
}
