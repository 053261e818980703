// memtrace's Node.js preload, loaded with `node --require` before the
// program. It installs the runtime shim (written beside this file by
// memtrace) and instruments every module the program loads, CommonJS here
// and ES modules through the loader hooks registered below, by calling the
// memtrace binary synchronously. Instrumented sources are cached per
// process by content.
'use strict';
// Only the main thread is traced: Node's loader-hooks thread and the
// program's worker threads inherit --require, and must neither write to the
// trace nor run code that calls a shim they do not have.
if (require('node:worker_threads').isMainThread) {
const path = require('node:path');
const Module = require('node:module');
const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');

const bin = process.env.MEMTRACE_BIN;
const shimFile = path.join(__dirname, 'shim.js');

// The shim first: it must see the program's natives before the program
// can patch them.
require(shimFile);

const cache = new Map();

// instrumentArgs: the modes and exclusion globs memtrace node was given.
function instrumentArgs(env) {
  const a = [];
  if (env.MEMTRACE_ALL_USES === '1') a.push('--all-uses');
  if (env.MEMTRACE_ALL_PUTFIELDS === '1') a.push('--all-putfields');
  let ex = [];
  try { ex = JSON.parse(env.MEMTRACE_EXCLUDE || '[]'); } catch { ex = []; }
  if (!Array.isArray(ex)) ex = [];
  for (const g of ex) a.push('--exclude=' + g);
  return a;
}
const extraArgs = instrumentArgs(process.env);

// instrument returns the instrumented source, or the original source with a
// warning on standard error if memtrace cannot instrument it.
// scriptName is the name recorded in SCRIPT_ENTER: the path relative to the
// working directory when the file is under it (as MemInsight recorded the
// path given to it), else the absolute path.
function scriptName(filename) {
  const rel = path.relative(process.cwd(), filename);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : filename;
}

// TypeScript, TSX and JSX go through esbuild inside memtrace (--loader);
// --path lets it find the file's tsconfig.json.
const loaders = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.jsx': 'jsx' };
function loaderOf(filename) {
  return loaders[path.extname(filename).toLowerCase()] || 'js';
}

function instrument(source, filename, goal) {
  const key = goal + '\0' + filename + '\0' + crypto.createHash('sha256').update(source).digest('hex');
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let out = source;
  const args = ['instrument', '--no-shim', ...extraArgs, '--goal', goal, '--name', scriptName(filename)];
  const loader = loaderOf(filename);
  if (loader !== 'js') args.push('--loader', loader, '--path', filename);
  args.push('-');
  try {
    out = execFileSync(bin, args, {
      input: source,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  } catch (e) {
    const msg = (e.stderr && String(e.stderr).trim()) || String(e);
    process.stderr.write(`memtrace: ${filename} runs uninstrumented: ${msg}\n`);
  }
  cache.set(key, out);
  return out;
}

// CommonJS: wrap the .js/.cjs compiler. Module._extensions keeps Node's own
// reading and error handling; only the source changes.
const origCompile = Module.prototype._compile;
// Node 20.19+ also compiles ES modules that require() loads here, with
// format 'module' (require(esm)).
Module.prototype._compile = function (content, filename, format) {
  if (typeof filename === 'string' && filename !== shimFile && !filename.startsWith(__dirname + path.sep)) {
    const goal = format === 'module' || /\.m[jt]s$/i.test(filename) ? 'module' : 'commonjs';
    content = instrument(content, filename, goal);
  }
  return origCompile.apply(this, [content, ...Array.prototype.slice.call(arguments, 1)]);
};

// require() finds .ts, .cts, .tsx and .jsx files without their extension
// too; Node 20 compiles them with the .js handler, whose _compile is the
// one above. (.mts is an ES module: the loader hooks take it.)
for (const ext of ['.ts', '.cts', '.tsx', '.jsx']) {
  if (!Module._extensions[ext]) Module._extensions[ext] = Module._extensions['.js'];
}

// ES modules: loader hooks in their own thread.
if (typeof Module.register === 'function') {
  Module.register(require('node:url').pathToFileURL(path.join(__dirname, 'loader.mjs')).href, {
    data: { bin },
  });
}
}
