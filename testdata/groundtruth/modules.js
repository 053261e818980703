'use strict';
// Ground-truth program (see README.md; track, kept and report: harness/gt.js).
// Each track call is on its own line and its argument is the only
// allocation on that line. The modules in modules/
// track through the same function (global.track).
const { track, kept, report } = require('./harness/gt.js');
global.track = track;

// Two modules whose top-level bindings have the same names: each module's
// closures keep its own objects.
kept.a = require('./modules/a.js');
kept.b = require('./modules/b.js');
// A write to one module's binding drops that module's old object only.
kept.a.replace();
// The same file evaluated twice is two module scopes.
kept.c1 = require('./modules/c.js');
delete require.cache[require.resolve('./modules/c.js')];
kept.c2 = require('./modules/c.js');
// A module whose top-level binding nothing captures: V8 drops it when the
// module function returns (the model keeps module scopes to the end).
require('./modules/d.js');
// The main module's own binding named like the modules' ones.
let cache = track('main-cache', { main: 1 });
kept.main = () => cache;

report();
