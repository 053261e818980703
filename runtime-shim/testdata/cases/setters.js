// The setter rule and primitive elision of property writes (spec 3.3):
// a write that reaches a setter, own or inherited, logs nothing; a write
// to an own or inherited data property, or a new one, logs a PUTFIELD;
// a primitive over a primitive own data property is elided, over an
// object it is logged with 0.
// Site table: iid k maps to line 1, columns k..k+1 (synthetic).
const __mt$ = __mt.S("cases/setters.js", [].concat(...Array.from({length: 40}, (_, k) => [1, k + 1, 1, k + 2])), {}, 1, 2);
try {
__mt$.N(3, "P", P); __mt$.N(4, "o", o); __mt$.N(5, "seen", seen);
var seen = [];
var P = __mt$.W(6, "P", __mt$.T(7, { set s(v) { seen.push(v); }, get g() { return 1; }, d: 5 }, 1), P);
var o = __mt$.W(8, "o", __mt$.T(9, Object.create(P)), o);
__mt$.P(10, o, "s", __mt$.T(11, {}), 0);           // inherited setter: nothing
__mt$.P(12, o, "g", __mt$.T(13, {}), 0);           // inherited getter only: nothing (the write fails)
__mt$.P(14, o, "d", __mt$.T(15, {}), 0);           // inherited data: PUTFIELD d
__mt$.P(16, o, "n", __mt$.T(17, {}), 0);           // new property: PUTFIELD n
Object.defineProperty(o, "a", { set(v) { seen.push(v); }, configurable: true });
__mt$.P(18, o, "a", __mt$.T(19, {}), 0);           // own setter: nothing
__mt$.P(20, o, "n", 7, 0);                         // primitive over an object: PUTFIELD n 0
__mt$.P(21, o, "n", 8, 0);                         // primitive over a primitive: elided
__mt$.P(22, o, "n", __mt$.T(23, []), 0);           // object over a primitive: PUTFIELD n
if (seen.length !== 2 || o.g !== 1) throw new Error("setter writes: " + seen.length + " " + o.g);
} finally { __mt$.Sx(); }
