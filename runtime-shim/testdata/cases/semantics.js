// The shim stays invisible and keeps the language's semantics: ids are not
// own keys, sloppy and strict writes and deletes behave as without it, a
// frozen object still gets an id (WeakMap fallback or private field), the
// periodic last-use block appears every 10000 ticks, and a second copy of
// the shim installs nothing.
// golden: none
const __mt$ = __mt.S("cases/semantics.js", [].concat(...Array.from({length: 30}, (_, k) => [1, k + 1, 1, k + 2])), {}, 1, 2);
try {
function assert(c, m) { if (!c) throw new Error("assertion failed: " + m); }
var o = __mt$.W(3, "o", __mt$.T(4, {a: 1}), o);
assert(Reflect.ownKeys(o).join() === "a", "ownKeys " + Reflect.ownKeys(o).join());
assert(JSON.stringify(o) === '{"a":1}', "JSON");
assert(Object.getOwnPropertySymbols(o).length === 0, "symbols");
assert(!Object.getOwnPropertyNames(globalThis).includes("__mt") || !Object.keys(globalThis).includes("__mt"), "enumerable __mt");
var ro = Object.defineProperty({}, "k", { value: 1, writable: false });
__mt$.P(5, ro, "k", 2, false); // sloppy: silently ignored
assert(ro.k === 1, "sloppy write");
var threw = false;
try { __mt$.P(6, ro, "k", 2, true); } catch (e) { threw = e instanceof TypeError; }
assert(threw, "strict write throws");
assert(__mt$.D(7, ro, "k", false) === false, "sloppy delete");
threw = false;
try { __mt$.D(8, ro, "k", true); } catch (e) { threw = e instanceof TypeError; }
assert(threw, "strict delete throws");
var fr = __mt$.W(9, "fr", __mt$.T(10, Object.freeze({})), fr);
__mt$.P(11, o, "f", fr, false);
assert(o.f === fr, "frozen value stored");
var setterThis;
var s = __mt$.T(12, { set v(x) { setterThis = this; } }, 1);
__mt$.P(13, s, "v", 5, false);
assert(setterThis === s, "setter receiver");
assert((function (a) { return __mt$.m(14, a, __mt$.M(15, a, a.join), "-"); })([3, 1, 2]) === "3-1-2", "method call");
assert(__mt$.n(15, Map) instanceof Map, "new native");
for (var k = 0; k < 3400; k++) __mt$.X(17, __mt$.W(16, "o", __mt$.T(18, {}), o));
var before = __mt.stats().time;
assert(before > 10000, "ticks " + before);
// a second copy of the shim does nothing
const v = __mt.version;
require("vm").runInThisContext(require("fs").readFileSync(process.env.SHIM, "utf8"));
assert(__mt.version === v && __mt.stats().time === before, "second install");
} finally { __mt$.Sx(); }
