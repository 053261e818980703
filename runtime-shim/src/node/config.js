// The Node host's configuration: memtrace's variables of the environment,
// read once when the shim installs (memtrace node's preload then takes
// them out of the program's process.env; the program's children get them
// back). The core's settings (config) and the host's own (the trace file,
// the instrumenter for run-time code) come from the same variables; the
// table of every variable is docs/configuration.md.

import { apply, objectKeys, strSlice } from '../natives.js';

// readEnv returns the MEMTRACE_ variables of process proc's environment.
export function readEnv(proc) {
  const env = {};
  if (proc !== undefined && proc.env) {
    const ks = objectKeys(proc.env);
    for (let k = 0; k < ks.length; k++) if (apply(strSlice, ks[k], [0, 9]) === 'MEMTRACE_') env[ks[k]] = proc.env[ks[k]];
  }
  return env;
}

// coreConfig is the core's configuration (core.js, install) from env.
export function coreConfig(env) {
  return {
    debugFun: typeof env.MEMTRACE_DEBUG_FUN === 'string' ? env.MEMTRACE_DEBUG_FUN : '',
    allPutFields: env.MEMTRACE_ALL_PUTFIELDS === '1',
    allUses: env.MEMTRACE_ALL_USES === '1',
    compact: env.MEMTRACE_COMPACT === '1',
    timeLimit: +env.MEMTRACE_TIME_LIMIT > 0 ? +env.MEMTRACE_TIME_LIMIT : 0, // tests
    eagerProtos: env.MEMTRACE_EAGER_PROTOS === '1', // tests
    twoProbes: env.MEMTRACE_TWO_PROBES === '1', // tests
    vm: env.MEMTRACE_VM !== '0',
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
