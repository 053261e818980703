'use strict';
// Verdict suite (README.md): an HTTP server over loopback whose handler
// registers a listener per request that is never removed (a leak: every
// listener and the request context it captures stay), beside a bounded
// ring buffer of access-log records (not a leak: it keeps the last 20) and
// per-request temporaries.
const http = require('http');
const { EventEmitter } = require('events');

const bus = new EventEmitter();
bus.setMaxListeners(0);
const log = new Array(20).fill(null);
let next = 0;

function handle(req, res) {
  const ctx = { id: next, url: req.url, started: Date.now() }; // verdict: leaking
  bus.on('shutdown', () => ctx.id); // verdict: leaking
  log[next % log.length] = { id: ctx.id, at: ctx.started }; // verdict: not leaking
  next++;
  const body = JSON.stringify({ ok: true, id: ctx.id });
  const headers = { 'content-type': 'application/json' }; // verdict: not leaking
  res.writeHead(200, headers);
  res.end(body);
}

const server = http.createServer(handle);
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  let left = 300;
  const one = () => {
    http.get({ host: '127.0.0.1', port, path: '/r/' + left, agent: false }, (res) => {
      res.resume();
      res.on('end', () => {
        if (--left > 0) setImmediate(one);
        else server.close(() => console.log('served', next, 'listeners', bus.listenerCount('shutdown')));
      });
    });
  };
  one();
});
