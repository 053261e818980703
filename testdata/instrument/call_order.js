// Evaluation order of calls: the base, the key, the method lookup, then the
// arguments and the call, with this = the base (getters log the order).
var log = [];
function note(s, v) { log.push(s); return v; }
var o = {
  get m() { note("get m"); return function (a, b) { note("call m " + (this === o) + " " + a + b); return this; }; },
  n: function () { return "n" + arguments.length; }
};
note("r1", o.m(note("arg1", 1), note("arg2", 2)));
note("r2", note("base", o)[note("key", "m")](note("arg", 3), 4));
// an argument that reassigns the method: the old one is called
var p = { m: function () { return "old"; } };
note(p.m(p.m = function () { return "new"; }));
note(p.m());
// an argument that reassigns the base: this is the old base
var q = { who: "q1", m: function () { return this.who; } };
note(q.m(q = { who: "q2", m: function () { return "q2!"; } }));
// a throwing argument: the lookup (a getter) has run, the call has not
try {
  o.m(note("throwing arg", undefined).x, 0);
} catch (e) {
  note("caught " + (e instanceof TypeError));
}
// a missing method: the TypeError comes after the arguments
try {
  o.missing(note("arg of missing", 1));
} catch (e) {
  note("caught " + (e instanceof TypeError));
}
// a null base throws before the arguments
try {
  var nb = null;
  nb.m(note("never", 1));
} catch (e) {
  note("caught null " + (e instanceof TypeError));
}
// computed keys with a comma, nested calls, new and plain calls
note(o[(note("k1"), "n")](o.n(1, 2), [1, 2].concat([3]).join("-")));
function F(a) { this.a = a; }
note(new (note("callee", F))(note("new arg", 5)).a);
note(note("callee2", note)("plain", 6));
// default parameters and class fields: no var for a temporary there
function d(x = note("default", o).n(1)) { return x; }
note(d());
class C { f = note("field", o).n(1, 2, 3); g() { return this.f; } }
note(new C().g());
console.log(log.join("\n"));
