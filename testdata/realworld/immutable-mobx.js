// immutable (persistent structures) and mobx (observables built on proxies, class fields, reactions).
const { Map, List, fromJS } = require('immutable');
const m = Map({ a: 1, b: List([1, 2]) });
const m2 = m.set('a', 2).updateIn(['b'], (l) => l.push(3));
console.log(JSON.stringify(m2), m.get('a'), fromJS({ x: [1, { y: 2 }] }).getIn(['x', 1, 'y']));
const { observable, autorun, computed, action, makeAutoObservable } = require('mobx');
class Store { items = []; constructor() { makeAutoObservable(this); } add(x) { this.items.push(x); } get total() { return this.items.reduce((a, b) => a + b, 0); } }
const s = new Store(); const seen = [];
autorun(() => seen.push(s.total));
s.add(1); s.add(2);
const o = observable({ n: 1 }); autorun(() => seen.push('n' + o.n)); o.n = 5;
console.log(seen.join(','));
