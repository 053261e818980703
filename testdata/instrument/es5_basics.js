// ES5: literals, property reads and writes, calls, constructors, closures.
function O(p) {
    this.p = p;
    this.list = [];
}
O.prototype.add = function (x) {
    this.list.push(x);
    return this;
};
var o = new O({n: 1});
o.add(1).add({k: [2, 3]});
console.log(JSON.stringify(o), o.list.length);
function counter() {
    var c = 0;
    return function () { return ++c; };
}
var next = counter();
next(); next();
console.log(next());
var re = /a(b)?/g;
console.log("xab".replace(re, "-"));
delete o.p;
console.log("p" in o, typeof o.add);
var s = "abc";
console.log(s.toUpperCase(), s.length, s[1]);
