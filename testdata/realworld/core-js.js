// core-js: polyfills that patch the global objects the shim's natives come from.
require('core-js/actual');
console.log([1, [2, [3]]].flat(Infinity), Object.groupBy ? 'g' : 'n', structuredClone({ a: new Map([[1, 2]]) }).a.get(1));
console.log(new Set([1, 2]).union ? [...new Set([1, 2]).union(new Set([3]))] : 'nounion', Array.from({ length: 3 }, (_, i) => i * i));
class A { #x = 1; get x() { return this.#x; } }
console.log(new A().x, Promise.withResolvers ? 'wr' : 'nowr', 'abc'.at(-1));
