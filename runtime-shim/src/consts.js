// Constants of the shim, in a module of their own: esbuild writes the
// value of a constant imported from another module where it is used (a
// constant of index.js stays a variable, since install(), hoisted, runs
// before its declaration), so the hot paths compare and write literals
// instead of reading variables.

// Entry types (spec 1.3).
export const DECLARE = 0, CREATE_OBJ = 1, CREATE_FUN = 2, PUTFIELD = 3, WRITE = 4, LAST_USE = 5,
  FUNCTION_ENTER = 6, FUNCTION_EXIT = 7, TOP_LEVEL_FLUSH = 8, UPDATE_IID = 9, DEBUG = 10,
  RETURN = 11, CALL = 18, SCRIPT_ENTER = 19, SCRIPT_EXIT = 20, FREE_VARS = 21,
  SOURCE_MAPPING = 22, UPDATE_CURRENT_SCRIPT = 23, END_LAST_USE = 24;
export const CREATE_DOM_NODE = 12, ADD_DOM_CHILD = 13, REMOVE_DOM_CHILD = 14, DOM_ROOT = 17;
// Kinds from K_HOST on are the host's own models (its natives()' model:
// the browser's DOM, browser/dom.js).
export const K_HOST = 200;
export const LAST_USE_FLUSH_PERIOD = 10000;
// Native models (spec 3.6).
export const K_PUSH = 1, K_POP = 2, K_SHIFT = 3, K_UNSHIFT = 4, K_SPLICE = 5, K_CONCAT = 6,
  K_DEFINE_PROPERTY = 7, K_SET_TIMEOUT = 8, K_CLEAR_TIMEOUT = 9, K_SET_INTERVAL = 10,
  K_CLEAR_INTERVAL = 11;
export const K_MAP = 12, K_SET = 13, K_WEAK_MAP = 14, K_MAP_SET = 15, K_MAP_DELETE = 16, K_MAP_CLEAR = 17,
  K_SET_ADD = 18, K_SET_DELETE = 19, K_SET_CLEAR = 20, K_WEAK_MAP_SET = 21, K_WEAK_MAP_DELETE = 22;
export const K_OBJECT_ASSIGN = 23, K_ARRAY_FROM = 24;
export const K_WEAK_REF_DEREF = 25, K_FIN_REG = 26, K_FIN_REGISTER = 27, K_FIN_UNREGISTER = 28, K_PROMISE = 29,
  K_THEN = 30, K_CATCH = 31, K_FINALLY = 32, K_PROMISE_RESOLVE = 33, K_PROMISE_REJECT = 34;
// Calls through reflection are calls of their target (invoke).
export const K_REFLECT_APPLY = 40, K_REFLECT_CONSTRUCT = 41, K_CALL = 42, K_APPLY = 43;
// A generator's next, return and throw: the generator they resume
// (docs/instrumentation.md §7, "Generators and async functions").
export const K_GEN_RESUME = 44;
// The error constructors: an error made through a call hook is given the
// stack its caller would have captured (makeError).
export const K_ERROR = 45;
export const K_LOC = 46; // callAtCaller
// Generic models (docs/natives.md): a native's result holds its elements
// (K_RESULT), an array rewritten in place (K_REWRITE), Object.entries'
// pairs (K_ENTRIES). Kinds from K_RESULT up are modelled by modelResult.
export const K_RESULT = 47, K_REWRITE = 48, K_ENTRIES = 49, K_OWN_PROPS = 50, K_ITER_RESULT = 51, K_ITERATOR = 52,
  K_DEEP = 53, K_CREATE = 54, K_DEFINE_PROPS = 55, K_SET_PROTO = 56, K_REFLECT_SET = 57, K_REFLECT_DELETE = 58,
  K_BIND = 59, K_PROXY = 60, K_REVOKE = 61, K_VIEW = 62, K_SUBARRAY = 63, K_ALL = 64, K_ALL_SETTLED = 65, K_ANY = 66,
  K_RACE = 67, K_EMITTER = 68, K_SET_IMMEDIATE = 69, K_NEXT_TICK = 70, K_ALS_RUN = 71, K_ALS_ENTER = 72,
  K_EVENT_TARGET = 73, K_ABORT_CONTROLLER = 74;
// Run-time code (§6): indirect eval and the function constructors.
export const K_EVAL = 35, K_FUNCTION = 36;
// Slots of the direct-mapped cache of named stores by site (siteStore).
export const STORE_SLOTS = 4096;
