// Values under computed keys (instrumented by TestComputedKeys): an
// anonymous function, arrow or class is named by the key's value, which
// is converted once, before the value is evaluated; the object or class
// gets the PUTFIELD of each value with its id, class fields and symbol
// keys included.
let keyReads = 0;
const keyObj = { toString() { keyReads++; return "viaToString"; } };
const symKey = Symbol("desc");
const computed = { [symKey]: () => 1, [keyObj]: function () {}, [1 + 1]: class {}, plain: {}, ...{ s: 2 } };
console.log(computed[symKey].name, computed.viaToString.name, computed[2].name, Object.getOwnPropertyNames(computed).join(), keyReads);
function classWithKey(k) {
  return class { static [k] = () => k; [k + "I"] = function () {}; [keyObj] = {}; };
}
const K1 = classWithKey("one"), K2 = classWithKey("two");
const i1 = new K1();
console.log(K1.one.name, K2.two.name, i1.oneI.name, new K2().twoI.name, K1.one(), keyReads);
