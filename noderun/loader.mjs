// memtrace's ES module loader hooks (registered by preload.cjs): every
// module Node loads as "module" format is instrumented by the memtrace
// binary before it runs. CommonJS modules are handled by preload.cjs.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

function scriptName(filename) {
  const rel = path.relative(process.cwd(), filename);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : filename;
}

let bin = process.env.MEMTRACE_BIN;

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

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (result.format !== 'module' || result.source == null || !url.startsWith('file:')) {
    return result;
  }
  const source = typeof result.source === 'string' ? result.source : Buffer.from(result.source).toString('utf8');
  const filename = fileURLToPath(url);
  try {
    const out = execFileSync(bin, ['instrument', '--no-shim', ...extraArgs, '--goal', 'module', '--name', scriptName(filename), '-'], {
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
