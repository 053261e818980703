// memtrace's ES module loader hooks (registered by preload.cjs): every
// module Node loads as "module" format is instrumented by the memtrace
// binary before it runs. CommonJS modules are handled by preload.cjs.
// TypeScript, TSX and JSX files (which Node 20 does not load itself) get
// their format here: .mts is a module, .cts CommonJS, .ts, .tsx and .jsx
// follow the nearest package.json; CommonJS ones go to Node's CommonJS
// loader, where preload.cjs instruments them.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

function scriptName(filename) {
  const rel = path.relative(process.cwd(), filename);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : filename;
}

let bin = process.env.MEMTRACE_BIN;
// memtrace's own files (beside this one) run as they are.
const ownDir = path.dirname(fileURLToPath(import.meta.url)) + path.sep;

// The modes and exclusion globs memtrace node was given (as preload.cjs).
const extraArgs = [];
if (process.env.MEMTRACE_ALL_USES === '1') extraArgs.push('--all-uses');
if (process.env.MEMTRACE_ALL_PUTFIELDS === '1') extraArgs.push('--all-putfields');
try {
  const ex = JSON.parse(process.env.MEMTRACE_EXCLUDE || '[]');
  if (Array.isArray(ex)) for (const g of ex) extraArgs.push('--exclude=' + g);
} catch { /* no exclusions */ }

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
  const filename = fileURLToPath(url);
  const args = ['instrument', '--no-shim', ...extraArgs, '--goal', 'module', '--name', scriptName(filename)];
  if (loader !== 'js') args.push('--loader', loader, '--path', filename);
  args.push('-');
  try {
    const out = execFileSync(bin, args, {
      input: source,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return { ...result, source: out };
  } catch (e) {
    const msg = (e.stderr && String(e.stderr).trim()) || String(e);
    process.stderr.write(`memtrace: ${filename} runs uninstrumented: ${msg}\n`);
    return result;
  }
}
