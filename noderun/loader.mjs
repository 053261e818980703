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
    const out = execFileSync(bin, ['instrument', '--no-shim', '--goal', 'module', '--name', scriptName(filename), '-'], {
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
