// nested: evalIndirect
globalThis.g = {n: 1};
console.log(JSON.stringify((0, eval)("var q = {a: {}}; [g.n, q]")));
console.log(JSON.stringify(globalThis.eval("({b: [typeof q, typeof g]})")));
var e = eval;
console.log(JSON.stringify(e("[{c: 1}]")));
(function () {
  var g = 'local';
  console.log((0, eval)("typeof g === 'object'"), e("g.n"));
})();
console.log((0, eval)("var declOnly = {}"), (0, eval)("1; var x = {}"), typeof declOnly);
try { (0, eval)("1 +"); } catch (err) { console.log('thrown', err.constructor === SyntaxError); }
console.log((0, eval)(42), (0, eval)());
