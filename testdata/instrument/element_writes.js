// Element writes the program performs itself when the shim finds them
// elided (Pq, Pu, Pm): arrays, typed arrays, computed keys of any kind.
var a = [], t = new Float64Array(4), o = {}, k = "x";
function fill(arr, n) {
  for (var i = 0; i < n; i++) arr[i] = i * 2;
  arr[n, 0] = arr[1];
  return arr;
}
function strict(arr) { "use strict"; arr[0] = 5; return arr[0]; }
fill(a, 3);
t[1] = a[2] = 7;
o[k] = {};
o[k + "y"] = t;
o[Symbol.iterator] = null;
console.log(fill(a, 2), strict(a), t[1], a[2], Object.keys(o));
