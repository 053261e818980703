// Keyed writes (o[k] = v) through every copy of P: typed arrays of every
// kind, in and out of range, values converted; sloppy writes that fail
// silently and strict ones that throw; a setter that throws.
var out = [];
function show(x) { return typeof x === "bigint" ? x + "n" : Object.is(x, -0) ? "-0" : String(x); }
function sloppy(a, k, v) { a[k] = v; return a[k]; }
function strict(a, k, v) { "use strict"; a[k] = v; return a[k]; }
function attempt(f, a, k, v) {
  try { return show(f(a, k, v)); } catch (e) { return e.constructor.name + ": " + e.message; }
}
var kinds = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array];
var keys = [0, 3, 100, -1, "2", "-0", "1.5", "x"];
var vals = [300, -1, "7", 1.9, null, undefined, { valueOf() { return 5; } }];
for (var K of kinds) {
  for (var f of [sloppy, strict]) {
    var row = [];
    for (var k of keys) for (var v of vals) row.push(attempt(f, new K(4), k, v));
    out.push(K.name + " " + f.name + " " + row.join(","));
  }
}
for (var f of [sloppy, strict]) {
  out.push("BigInt64Array " + f.name + " " + [attempt(f, new BigInt64Array(2), 1, 5n), attempt(f, new BigInt64Array(2), 1, 5), attempt(f, new BigInt64Array(2), 9, 5n)].join(","));
  var frozen = Object.freeze([1, 2, 3]);
  out.push("frozen " + f.name + " " + [attempt(f, frozen, 1, 9), attempt(f, frozen, 5, 9), attempt(f, frozen, "length", 0)].join(","));
  var ro = Object.defineProperty({}, "p", { value: 1, writable: false });
  out.push("read-only " + f.name + " " + [attempt(f, ro, "p", 2), attempt(f, ro, "q", 2)].join(","));
  var getterOnly = { get g() { return 4; } };
  out.push("getter-only " + f.name + " " + attempt(f, getterOnly, "g", 5));
  var arr = [1, 2, 3];
  out.push("array " + f.name + " " + [attempt(f, arr, 1, "b"), attempt(f, arr, "length", 1), arr.length, attempt(f, arr, 4, 7), arr.length].join(","));
  var sealed = Object.seal({ s: 1 });
  out.push("sealed " + f.name + " " + [attempt(f, sealed, "s", 2), attempt(f, sealed, "t", 2)].join(","));
}
var thrower = { set t(v) { throw new Error("setter " + v); } };
try { sloppy(thrower, "t", 1); } catch (e) {
  out.push(e.message + " " + e.stack.split("\n").slice(1, 3).map(function (l) { return l.trim().split(" ")[1]; }).join(" "));
}
// Keyed write sites enough for every copy of P, each writing two kinds.
function w0(a, k, v) { a[k] = v; return a[k]; }
function w1(a, k, v) { a[k] = v; return a[k]; }
function w2(a, k, v) { a[k] = v; return a[k]; }
function w3(a, k, v) { a[k] = v; return a[k]; }
function w4(a, k, v) { a[k] = v; return a[k]; }
function w5(a, k, v) { a[k] = v; return a[k]; }
function w6(a, k, v) { a[k] = v; return a[k]; }
function w7(a, k, v) { a[k] = v; return a[k]; }
function w8(a, k, v) { a[k] = v; return a[k]; }
function w9(a, k, v) { a[k] = v; return a[k]; }
function w10(a, k, v) { a[k] = v; return a[k]; }
function w11(a, k, v) { a[k] = v; return a[k]; }
function w12(a, k, v) { a[k] = v; return a[k]; }
function w13(a, k, v) { a[k] = v; return a[k]; }
function w14(a, k, v) { a[k] = v; return a[k]; }
function w15(a, k, v) { a[k] = v; return a[k]; }
function w16(a, k, v) { a[k] = v; return a[k]; }
function w17(a, k, v) { a[k] = v; return a[k]; }
function w18(a, k, v) { a[k] = v; return a[k]; }
function w19(a, k, v) { a[k] = v; return a[k]; }
function w20(a, k, v) { a[k] = v; return a[k]; }
function w21(a, k, v) { a[k] = v; return a[k]; }
function w22(a, k, v) { a[k] = v; return a[k]; }
function w23(a, k, v) { a[k] = v; return a[k]; }
function w24(a, k, v) { a[k] = v; return a[k]; }
function w25(a, k, v) { a[k] = v; return a[k]; }
function w26(a, k, v) { a[k] = v; return a[k]; }
function w27(a, k, v) { a[k] = v; return a[k]; }
function w28(a, k, v) { a[k] = v; return a[k]; }
function w29(a, k, v) { a[k] = v; return a[k]; }
function w30(a, k, v) { a[k] = v; return a[k]; }
function w31(a, k, v) { a[k] = v; return a[k]; }
function w32(a, k, v) { a[k] = v; return a[k]; }
function w33(a, k, v) { a[k] = v; return a[k]; }
function w34(a, k, v) { a[k] = v; return a[k]; }
function w35(a, k, v) { a[k] = v; return a[k]; }
function w36(a, k, v) { a[k] = v; return a[k]; }
function w37(a, k, v) { a[k] = v; return a[k]; }
function w38(a, k, v) { a[k] = v; return a[k]; }
function w39(a, k, v) { a[k] = v; return a[k]; }
var ws = [w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, w12, w13, w14, w15, w16, w17, w18, w19, w20, w21, w22, w23, w24, w25, w26, w27, w28, w29, w30, w31, w32, w33, w34, w35, w36, w37, w38, w39];
var sums = [];
for (var i = 0; i < 40; i++) {
  var i8 = new Int8Array(8), f64 = new Float64Array(8), plain = [0, 0, 0, 0, 0, 0, 0, 0];
  for (var r = 0; r < 200; r++) { ws[i](i8, r & 7, r); ws[i](f64, r & 7, r / 3); ws[i](plain, r & 7, r); }
  sums.push(i8.reduce(function (a, b) { return a + b; }) + "/" + f64.reduce(function (a, b) { return a + b; }).toFixed(3) + "/" + plain.join("+"));
}
out.push(sums.join(" "));
console.log(out.join("\n"));
