// The Node host's configuration: memtrace node's MEMTRACE_CONFIG (one JSON
// value, runtimeshim.Config in Go), or without it the variables a user
// sets for a file instrumented ahead of time (MEMTRACE_OUT,
// MEMTRACE_COMPACT, ...); read once when the shim installs (memtrace
// node's preload then takes them out of the program's process.env; the
// program's children get them back). The core's settings (coreConfig) and
// the host's own (the trace file, the instrumenter for run-time code) come
// from it; the table of every variable is docs/configuration.md.

import { apply, isArray, jsonParse, $JSON, objectKeys, strSlice } from '../natives.js';

// readEnv returns the MEMTRACE_ variables of process proc's environment.
export function readEnv(proc) {
  const env = {};
  if (proc !== undefined && proc.env) {
    const ks = objectKeys(proc.env);
    for (let k = 0; k < ks.length; k++) if (apply(strSlice, ks[k], [0, 9]) === 'MEMTRACE_') env[ks[k]] = proc.env[ks[k]];
  }
  return env;
}

// settings returns the configuration env gives: MEMTRACE_CONFIG's, else
// the variables' ({out, status, bin, debugFun, allUses, allPutFields,
// compact, exclude, collector, token}).
export function settings(env) {
  let c;
  if (typeof env.MEMTRACE_CONFIG === 'string' && env.MEMTRACE_CONFIG !== '') {
    try { c = apply(jsonParse, $JSON, [env.MEMTRACE_CONFIG]); } catch { c = undefined; }
  }
  if (c === null || typeof c !== 'object' || isArray(c)) {
    c = {
      out: env.MEMTRACE_OUT, status: env.MEMTRACE_STATUS, bin: env.MEMTRACE_BIN, debugFun: env.MEMTRACE_DEBUG_FUN,
      allUses: env.MEMTRACE_ALL_USES === '1', allPutFields: env.MEMTRACE_ALL_PUTFIELDS === '1', compact: env.MEMTRACE_COMPACT === '1',
      collector: env.MEMTRACE_COLLECTOR, token: env.MEMTRACE_TOKEN,
    };
  }
  return c;
}

// coreConfig is the core's configuration (core.js, install) from the
// settings s and the variables env that only tests set.
export function coreConfig(s, env) {
  return {
    debugFun: typeof s.debugFun === 'string' ? s.debugFun : '',
    allPutFields: s.allPutFields === true,
    allUses: s.allUses === true,
    compact: s.compact === true,
    timeLimit: +env.MEMTRACE_TIME_LIMIT > 0 ? +env.MEMTRACE_TIME_LIMIT : 0, // tests
    eagerProtos: env.MEMTRACE_EAGER_PROTOS === '1', // tests
    twoProbes: env.MEMTRACE_TWO_PROBES === '1', // tests
    shimFrames: env.MEMTRACE_SHIM_FRAMES === '1',
  };
}

// helperIdleMs: how long the instrument server waits for another string
// before it leaves (MEMTRACE_HELPER_IDLE_MS, default 2 s; 0: it stays).
export function helperIdleMs(env) {
  const v = env.MEMTRACE_HELPER_IDLE_MS;
  const n = v === undefined || v === '' ? 2000 : +v;
  return n >= 0 && n < 1e9 ? n : 2000;
}
