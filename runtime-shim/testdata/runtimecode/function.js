// nested: evalIndirect
globalThis.g = 5;
var add = new Function("a", "b", "return {sum: a + b + g}");
console.log(JSON.stringify(add(1, 2)), add.name, add.length, String(add));
console.log(Reflect.ownKeys(add).join(), JSON.stringify(Object.getOwnPropertyDescriptor(add, 'name')));
var f = Function("return typeof anonymous + typeof this");
console.log(f(), f.call({}));
var p = Function("a, b = {}", "...rest", "return [a, b, rest]");
console.log(JSON.stringify(p(1, undefined, 3, 4)), p.length, p.toString());
var c = (function () {}).constructor("return [this === globalThis]");
console.log(JSON.stringify(c()));
var AsyncFunction = (async function () {}).constructor;
var GeneratorFunction = (function* () {}).constructor;
var AsyncGeneratorFunction = (async function* () {}).constructor;
var af = new AsyncFunction("x", "return {v: await x}");
var gf = GeneratorFunction("yield {i: 1}; yield 2");
var agf = AsyncGeneratorFunction("yield {j: await 1}");
console.log(String(af), String(gf), String(agf));
console.log(JSON.stringify([...gf()]));
for (const [args, what] of [[["a b", ""], 'params'], [["/*", "*/){"], 'injection'], [["}"], 'body'], [[")"], 'body paren']]) {
  try { Function(...args); console.log(what, 'no error'); } catch (err) { console.log(what, err.constructor.name); }
}
var calls = [];
var arg = { toString() { calls.push('a'); return 'x'; } };
var body = { toString() { calls.push('b'); return 'return x'; } };
console.log(Function(arg, body)(7), calls.join());
try { Function(Symbol()); } catch (err) { console.log(err.constructor.name); }
af(3).then((r) => console.log(JSON.stringify(r)));
agf().next().then((r) => console.log(JSON.stringify(r.value)));
// Named by named evaluation, not defineProperty, which leaves a function
// with slow (dictionary) properties in V8.
require('v8').setFlagsFromString('--allow-natives-syntax');
var fastProps = (0, eval)('(o) => %HasFastProperties(o)');
console.log('fast properties', fastProps(add), fastProps(af), fastProps(gf), fastProps(agf), fastProps(c));
