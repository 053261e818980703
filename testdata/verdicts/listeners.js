'use strict';
// Verdict suite (README.md): listeners removed when their connection closes
// are not a leak; listeners never removed are, with what they capture.
// Both on a bus of the program's own and on Node's EventEmitter.
const { EventEmitter } = require('events');

class Bus {
  constructor() { this.handlers = new Map(); }
  on(ev, f) {
    let hs = this.handlers.get(ev);
    if (hs === undefined) this.handlers.set(ev, hs = new Set());
    hs.add(f);
    return () => hs.delete(f);
  }
  emit(ev, x) { for (const f of this.handlers.get(ev) || []) f(x); }
  count(ev) { return (this.handlers.get(ev) || new Set()).size; }
}
const bus = new Bus();
const ee = new EventEmitter();
ee.setMaxListeners(0);

function connect(n) {
  const conn = { n, buf: [] }; // verdict: not leaking
  const off = bus.on('data', (x) => conn.buf.push(x)); // verdict: not leaking
  const onTick = (x) => conn.buf.push(x); // verdict: not leaking
  ee.on('tick', onTick);
  return () => { off(); ee.off('tick', onTick); };
}

function subscribeForever(n) {
  const state = { n, seen: 0 }; // verdict: leaking
  bus.on('close', () => { state.seen++; }); // verdict: leaking
  ee.on('never', () => state.seen); // verdict: leaking
}

let i = 0;
function step() {
  const close = connect(i);
  bus.emit('data', i);
  ee.emit('tick', i);
  close();
  subscribeForever(i);
  if (++i < 300) setImmediate(step);
  else console.log(bus.count('data'), bus.count('close'), ee.listenerCount('tick'), ee.listenerCount('never'));
}
step();
