// Runs Octane benchmarks as d8's run.js does: node octane.js DIR FILE...
// loads each FILE of DIR (the shim first, for instrumented runs) as a
// classic script into this global scope, with print and read defined,
// then runs the suites deterministically without warm-up. The last line
// is "OCTANE ok" or "OCTANE failed" (exit code 1); every NotifyError
// prints "ERROR".
'use strict';
const vm = require('vm');
const fs = require('fs');
const path = require('path');

const [dir, ...files] = process.argv.slice(2);
globalThis.print = function print(...a) { console.log(a.join(' ')); };
globalThis.read = function read(f) { return fs.readFileSync(path.resolve(dir, String(f)), 'utf8'); };
for (const f of files) {
  vm.runInThisContext(fs.readFileSync(path.join(dir, f), 'utf8'), { filename: f });
}
const errors = [];
const BenchmarkSuite = vm.runInThisContext('BenchmarkSuite');
BenchmarkSuite.config.doWarmup = false;
BenchmarkSuite.config.doDeterministic = true;
const started = process.cpuUsage();
BenchmarkSuite.RunSuites({
  NotifyResult(name, result) { console.log(name + ': ' + result); },
  NotifyError(name, error) { errors.push(name); console.log('ERROR ' + name + ': ' + error); },
  NotifyScore(score) { console.log('Score: ' + score); },
});
const cpu = process.cpuUsage(started);
console.log('CPU ' + ((cpu.user + cpu.system) / 1e6).toFixed(2) + ' s');
console.log(errors.length === 0 ? 'OCTANE ok' : 'OCTANE failed');
// A run that failed its own validation measures nothing: the exit code
// says so to whoever times it (bench).
if (errors.length !== 0) process.exitCode = 1;
