// nested: eval
function f(a) {
  var local = {v: a};
  return eval("var made = {w: local}; made.w.v + 1");
}
console.log(f(1), f(2));
function strict() {
  'use strict';
  var o = Object.freeze({a: 1});
  try { eval("o.a = 2; var z = {}"); return 'no error'; } catch (err) { return err.constructor.name; }
}
console.log(strict(), typeof z);
try { eval("{"); } catch (err) { console.log('thrown', err.constructor === SyntaxError); }
console.log(eval('"use strict"; var y = 1; y'), typeof y);
