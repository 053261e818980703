// ES5: compound assignments, updates, sequences, conditionals, for-in.
var o = {a: 1, b: {c: 2}}, k = "a", i, n = 0;
o.a += 10;
o[k] *= 2;
o.b.c++;
++o.b["c"];
var old = o.a--;
n += o.a;
n -= 1;
console.log(o.a, o.b.c, old, n);
var keys = [];
for (k in o) keys.push(k);
for (var j in o.b) keys.push(j);
console.log(keys.join(","), k, j);
var x = (n++, n++, n);
console.log(x, n > 3 ? "big" : "small");
for (i = 0; i < 3; i++) { n = n * 2 }
while (n > 100) n = n - 50;
do { n++ } while (n % 7);
console.log(i, n);
switch (typeof o) { case "object": console.log("obj"); break; default: console.log("other") }
try { null.p = 1 } catch (e) { console.log(e instanceof TypeError) }
try { undefinedName = 1; console.log(undefinedName) } finally { console.log("fin") }
