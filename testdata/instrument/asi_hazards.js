// ASI: statements without semicolons next to spliced text.
var a = 1
var b = a
a = b
;[a, b].forEach(function (x) { console.log(x) })
var c = function () { return 1 }
(function () { console.log("iife") })
let d = 2
d
++d
console.log(d)
class K {}
[1].map(x => console.log(x))
var s = `t`
console.log(s)
function r() {
  return (
    a + 1
  )
}
console.log(r())
// statements ending in "}" that hooks wrap: the next one may begin with
// "(" (in a function, where a statement ends with the inline slot test)
function wrapped() {
  const o = {}
  o[0] = 1
  o.p ??= {}
  var f = function () {}
  o.p++
  if (f) o.q = {}
  o[1] = 2
  return [o[0], o.p, o[1]]
}
console.log(wrapped())
