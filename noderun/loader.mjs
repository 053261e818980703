// memtrace's ES module loader hooks (registered by preload.cjs): every
// module Node loads as "module" format is instrumented before it runs,
// unless it is instrumented already, by a long-lived `memtrace
// instrument-server` that this thread starts on first use (ES modules load
// asynchronously, so several are instrumented at once). CommonJS modules
// are handled by preload.cjs. TypeScript, TSX and JSX files (which Node 20
// does not load itself) get their format here: .mts is a module, .cts
// CommonJS, .ts, .tsx and .jsx follow the nearest package.json; CommonJS
// ones go to Node's CommonJS loader, where preload.cjs instruments them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const require = createRequire(import.meta.url);
const { isInstrumented, instrumentArgs, readConfig, Client, loadShimNowhere, noteUninstrumented, deeperThan } = require('./client.cjs');

function scriptName(filename) {
  const rel = path.relative(process.cwd(), filename);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : filename;
}

let bin = readConfig(process.env).bin;
// Where the modules that run uninstrumented are recorded (session.json).
const uninstrumentedFile = process.env.MEMTRACE_UNINSTRUMENTED;
// memtrace's own files (beside this one) run as they are.
const ownDir = path.dirname(fileURLToPath(import.meta.url)) + path.sep;

// The modes and exclusion globs memtrace node was given (as preload.cjs).
const extraArgs = instrumentArgs(process.env);
let client;

// A module this thread itself imports (the hooks of a loader registered
// after memtrace's, as tsx's --import registers its own) is instrumented by
// these hooks too, and runs here, where preload.cjs loads no shim (its
// threads do not run the program): the shim is loaded, writing nowhere,
// before this thread instruments its first module, so that such code
// finds __mt.
let shimLoaded = false;
function loadShim() {
  shimLoaded = true;
  try {
    loadShimNowhere();
  } catch (e) {
    process.stderr.write(`memtrace: the loader thread has no shim: ${e.message}\n`);
  }
}

export async function initialize(data) {
  if (data && data.bin) bin = data.bin;
}

const loaders = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.jsx': 'jsx' };

function packageType(filename) {
  for (let dir = path.dirname(filename); ; dir = path.dirname(dir)) {
    try {
      return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).type === 'module' ? 'module' : 'commonjs';
    } catch (e) {
      if (e.code !== 'ENOENT' && e.code !== 'ENOTDIR') return 'commonjs';
    }
    if (path.dirname(dir) === dir) return 'commonjs';
  }
}

export async function load(url, context, nextLoad) {
  let loader = 'js';
  if (url.startsWith('file:')) {
    const ext = path.extname(fileURLToPath(url)).toLowerCase();
    if (loaders[ext]) {
      loader = loaders[ext];
      const format = ext === '.mts' ? 'module' : ext === '.cts' ? 'commonjs' : packageType(fileURLToPath(url));
      if (format === 'commonjs') return { format, shortCircuit: true };
      context = { ...context, format };
    }
  }
  const result = await nextLoad(url, context);
  if (result.format !== 'module' || result.source == null || !url.startsWith('file:') || fileURLToPath(url).startsWith(ownDir)) {
    return result;
  }
  const source = typeof result.source === 'string' ? result.source : Buffer.from(result.source).toString('utf8');
  if (isInstrumented(source)) return result;
  const filename = fileURLToPath(url);
  if (!shimLoaded) loadShim();
  if (client === undefined) client = new Client(bin, extraArgs);
  const r = await client.instrument({ name: scriptName(filename), goal: 'module', loader, path: filename }, source);
  if (r.error !== undefined) {
    process.stderr.write(`memtrace: ${filename} runs uninstrumented: ${r.error}\n`);
    noteUninstrumented(uninstrumentedFile, filename, r.error);
    return result;
  }
  if (loader === 'js' && deeperThan(r.code, riskyDepth) && !(await compiles(r.code)) && await compiles(source)) {
    const why = 'V8 cannot compile its instrumented text (nested too deep for its stack)';
    process.stderr.write(`memtrace: ${filename} runs uninstrumented: ${why}\n`);
    noteUninstrumented(uninstrumentedFile, filename, why);
    return result;
  }
  return { ...result, source: r.code };
}

// V8 nests only as deep as its stack lets its parser recurse, and the
// hooks of four forms (a = a = …, a ||= …, member chains, new new …) add a
// call to every level: near V8's own limit such a module is too deep
// instrumented where the original is not (docs/instrumentation.md,
// "Nesting"). A text whose brackets nest past riskyDepth is compiled here
// first; when V8 refuses it and not the original, the original runs,
// recorded as uninstrumented. (CommonJS: preload.cjs, compiledOrOriginal.)
const riskyDepth = 1000;


// compiles reports whether V8 compiles text as a module in this thread:
// it is imported from a data: URL with an import that cannot be linked
// after it, so nothing of it runs; a compile error (a RangeError for a
// stack too small) comes before the link error.
async function compiles(text) {
  const url = 'data:text/javascript;base64,' + Buffer.from(text + '\nimport "memtrace:never-linked";\n').toString('base64');
  try {
    await import(url);
  } catch (e) {
    return !(e instanceof RangeError) && !(e instanceof SyntaxError && !/memtrace:never-linked/.test(String(e && e.message)));
  }
  return true;
}
