const kept = [];
function makeA() { return { a: 1 }; } // site:array
for (let i = 0; i < 3; i++) kept.push(makeA());

function counter() {
  let hold = { b: 2 }; // site:closure
  return () => hold;
}
const c = counter();

const registry = { byName: new Map() };
registry.byName.set('x', { c: 3 }); // site:map

const { EventEmitter } = require('events');
const bus = new EventEmitter();
bus.on('tick', function onTick() { return 1; }); // site:listener
console.log(typeof c, kept.length);
