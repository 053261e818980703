// memtrace's instrumenting client, shared by the preload's helper thread
// (bridge.cjs) and the ES module loader (loader.mjs): it starts one
// long-lived `memtrace instrument-server` per thread, on first use, and
// sends it modules to instrument (noderun/server.go has the protocol).
// It also tells instrumented sources from others without asking memtrace.
'use strict';
const { spawn } = require('node:child_process');

// An instrumented module has the prologue `const H = __mt.S("` (its handle
// a name of one or two characters, or `__mt$`; a classic script's
// `__mt$<8 hex digits>`; an ES module's is `var H = __mt$h(); function
// __mt$h() { return H || (H = __mt.S("`, a classic script's
// `__mt.Sg("__mt$<8 hex digits>", `) as its first
// statement after the hashbang, comments and directives, possibly after
// the runtime shim as a string that an indirect eval runs (about 50 KB,
// `memtrace instrument` without --no-shim) or a short prelude (`memtrace
// instrument DIR`). It is looked for in the first 256 KiB of the text; a
// module that has it loads as it is.
// So does the runtime shim itself (a project's .memtrace-shim.cjs, which
// its ES modules import), recognised by its first line.
const HEAD = 256 << 10;
const PROLOGUE = /(?:^|[\s;{}()])(?:const (?:[A-Za-z$_][A-Za-z0-9$_]?|__mt\$(?:[0-9a-f]{8})?) = __mt\.S\("|var (?:[A-Za-z$_][A-Za-z0-9$_]?|__mt\$) = __mt\$h\(\); function __mt\$h\(\) \{ return |__mt\.Sg\("__mt\$[0-9a-f]{8}", )/;
const SHIM = /^\uFEFF?\s*\/\* memtrace runtime shim /;
function isInstrumented(source) {
  const head = source.length > HEAD ? source.slice(0, HEAD) : source;
  return ((head.includes('= __mt.S("') || head.includes('__mt.Sg("')) && PROLOGUE.test(head)) || SHIM.test(head);
}

// readConfig returns the shim's configuration from env: memtrace node's
// MEMTRACE_CONFIG (runtimeshim.Config, JSON), or without it the variables
// a user sets for a file instrumented ahead of time (MEMTRACE_OUT, ...);
// writeConfig puts c back into env, for the shim this process loads and
// the processes it starts.
function readConfig(env) {
  let c;
  if (env.MEMTRACE_CONFIG) {
    try { c = JSON.parse(env.MEMTRACE_CONFIG); } catch { c = undefined; }
  }
  if (c === null || typeof c !== 'object' || Array.isArray(c)) {
    c = {
      out: env.MEMTRACE_OUT, status: env.MEMTRACE_STATUS, bin: env.MEMTRACE_BIN, debugFun: env.MEMTRACE_DEBUG_FUN,
      allUses: env.MEMTRACE_ALL_USES === '1', allPutFields: env.MEMTRACE_ALL_PUTFIELDS === '1', compact: env.MEMTRACE_COMPACT === '1',
    };
  }
  if (!Array.isArray(c.exclude)) c.exclude = [];
  return c;
}
function writeConfig(env, c) {
  env.MEMTRACE_CONFIG = JSON.stringify(c);
}

// instrumentArgs: the modes and exclusion globs memtrace node was given,
// as the instrument server's flags.
function instrumentArgs(env) {
  const c = readConfig(env);
  const a = [];
  if (c.allUses) a.push('--all-uses');
  if (c.allPutFields) a.push('--all-putfields');
  for (const g of c.exclude) if (typeof g === 'string') a.push('--exclude=' + g);
  return a;
}

// Client talks to one instrument-server process.
class Client {
  constructor(bin, args) {
    this.bin = bin;
    this.args = args;
    this.proc = undefined;
    this.failed = undefined; // why the server is unusable
    this.next = 1;
    this.pending = new Map(); // id -> {resolve}
    this.buf = Buffer.alloc(0);
    this.head = undefined; // the header of the answer being read
    this.body = null; // its bytes, gathered in one buffer of its length
    this.got = 0;
    this.exited = false;
  }

  start() {
    const proc = spawn(this.bin, ['instrument-server', ...this.args], { stdio: ['pipe', 'pipe', 'inherit'], windowsHide: true });
    this.proc = proc;
    proc.on('error', (e) => this.fail('memtrace instrument-server: ' + e.message));
    proc.on('exit', (code, sig) => {
      this.exited = true;
      this.fail(`memtrace instrument-server ended (${sig || code})`);
    });
    proc.stdin.on('error', () => {});
    proc.stdout.on('data', (d) => this.data(d));
    // Neither the server nor its pipes keep the program alive, except
    // while an answer is awaited (the loader-hooks thread must not go idle
    // then).
    proc.unref();
    this.ref(false);
  }

  ref(on) {
    for (const s of [this.proc.stdin, this.proc.stdout]) {
      if (on && s.ref) s.ref();
      else if (!on && s.unref) s.unref();
    }
  }

  fail(why) {
    if (this.failed === undefined) this.failed = why;
    // broken: the server failed, not the code (which it rejects with an
    // error of the code's own).
    for (const p of this.pending.values()) p.resolve({ error: this.failed, broken: true });
    this.pending.clear();
  }

  // data reads the server's answers: a JSON header line, then len bytes.
  // The bytes go into one buffer of their length as chunks arrive (gathering
  // them by concatenation copied a large module's answer once per chunk).
  data(d) {
    this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
    for (;;) {
      if (this.head === undefined) {
        const nl = this.buf.indexOf(10);
        if (nl < 0) return;
        try { this.head = JSON.parse(this.buf.subarray(0, nl).toString('utf8')); } catch (e) { this.fail('bad answer: ' + e.message); return; }
        this.buf = this.buf.subarray(nl + 1);
        this.body = Buffer.allocUnsafe(this.head.len);
        this.got = 0;
      }
      const n = Math.min(this.buf.length, this.head.len - this.got);
      this.buf.copy(this.body, this.got, 0, n);
      this.got += n;
      this.buf = this.buf.subarray(n);
      if (this.got < this.head.len) return;
      const code = this.body.toString('utf8');
      this.body = null;
      const p = this.pending.get(this.head.id);
      this.pending.delete(this.head.id);
      if (p) p.resolve(this.head.error ? { error: this.head.error } : { code, sites: this.head.sites });
      this.head = undefined;
      if (this.pending.size === 0) this.ref(false);
    }
  }

  // end ends the server's input and calls done once it has exited (at
  // once if it never started or has already exited).
  end(done) {
    if (this.proc === undefined || this.exited) {
      done();
      return;
    }
    this.proc.on('exit', () => done());
    this.proc.stdin.end();
  }

  // instrument resolves to {code, sites} or {error}; req has name, goal,
  // loader, path, eval, strict, global, sitesApart, file and posmap (see serverRequest);
  // sites is the site table of a sitesApart request.
  instrument(req, source) {
    if (this.failed === undefined && this.proc === undefined) {
      try { this.start(); } catch (e) { this.fail(String(e)); }
    }
    if (this.failed !== undefined) return Promise.resolve({ error: this.failed, broken: true });
    const id = this.next++;
    const src = Buffer.from(source, 'utf8');
    return new Promise((resolve) => {
      if (this.pending.size === 0) this.ref(true);
      this.pending.set(id, { resolve });
      const head = JSON.stringify({ id, name: req.name, goal: req.goal, loader: req.loader || 'js', path: req.path || '',
        eval: !!req.eval, strict: !!req.strict, global: !!req.global, sitesApart: !!req.sitesApart, file: !!req.file, posmap: !!req.posmap, len: src.length });
      this.proc.stdin.write(head + '\n');
      this.proc.stdin.write(src);
    });
  }
}

// loadShimNowhere loads the shim (beside this file) with its trace going
// nowhere, in a thread that may run instrumented code but is not traced (a
// worker given SHARE_ENV; the ES module hooks thread, when it runs another
// loader's hooks), so that such code finds __mt.
function loadShimNowhere() {
  if (globalThis.__mt !== undefined) return;
  const env = process.env;
  const saved = env.MEMTRACE_CONFIG;
  writeConfig(env, { ...readConfig(env), out: require('node:os').devNull, status: '' });
  try {
    require('./shim.js');
  } finally {
    if (saved === undefined) delete env.MEMTRACE_CONFIG;
    else env.MEMTRACE_CONFIG = saved;
  }
}

// noteUninstrumented records, in the file memtrace node reads into
// session.json (MEMTRACE_UNINSTRUMENTED; none: nothing), that module
// filename ran uninstrumented and why: one JSON line, appended.
function noteUninstrumented(file, filename, why) {
  if (!file) return;
  try {
    require('node:fs').appendFileSync(file, JSON.stringify({ module: filename, reason: String(why) }) + '\n');
  } catch { /* the warning on standard error stands */ }
}

// deeperThan (preload.cjs, loader.mjs: a text V8 may find too deep to
// compile instrumented) reports whether brackets nest more than n deep in text
// (strings and comments counted too: a text it flags is only compiled
// once more).
function deeperThan(text, n) {
  let d = 0;
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 40 || c === 91 || c === 123) {
      if (++d > n) return true;
    } else if (c === 41 || c === 93 || c === 125) {
      if (d > 0) d--;
    }
  }
  return false;
}

module.exports = { isInstrumented, instrumentArgs, readConfig, writeConfig, Client, loadShimNowhere, noteUninstrumented, deeperThan };
