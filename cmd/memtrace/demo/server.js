// A small request-handling service, the program `memtrace demo` runs.
// Requests arrive as events, one batch per turn of the event loop; each is
// parsed, authenticated, rendered, logged and answered. One of these steps
// keeps memory it never uses again: `memtrace demo` finds which.
'use strict';
const { EventEmitter } = require('events');

const server = new EventEmitter();
const stats = { served: 0, bytes: 0 };

// memoize remembers fn's result for each key, so that a repeated request
// is answered without rendering again.
function memoize(fn, keyOf) {
  const cache = new Map();
  return function (arg) {
    const key = keyOf(arg);
    if (cache.has(key)) return cache.get(key);
    const value = fn(arg);
    cache.set(key, value);
    return value;
  };
}

function parseRequest(raw, id) {
  const [method, path, query] = raw.split(' ');
  const params = {};
  for (const pair of (query || '').split('&')) {
    const [k, v] = pair.split('=');
    if (k) params[k] = v;
  }
  return { id, method, path, params };
}

// One session per user, made on the first request and used by every later one.
const sessions = new Map();
function sessionOf(user) {
  let s = sessions.get(user);
  if (!s) sessions.set(user, (s = { user, requests: 0 }));
  s.requests++;
  return s;
}

function renderPage(req) {
  const rows = [];
  for (let i = 0; i < 4; i++) rows.push({ cell: req.path + '/' + i });
  return { status: 200, body: rows.map((r) => r.cell).join('\n') };
}

const cachedRender = memoize(renderPage, (req) => req.path + '?' + req.id);

// The access log keeps the last 10 entries.
const accessLog = [];
function logAccess(req, res) {
  accessLog.push({ id: req.id, path: req.path, status: res.status });
  if (accessLog.length > 10) accessLog.shift();
}

server.on('request', (raw, id) => {
  const req = parseRequest(raw, id);
  const session = sessionOf(req.params.user);
  const res = cachedRender(req);
  logAccess(req, res);
  const headers = { 'content-length': res.body.length, 'x-session': session.requests };
  stats.served++;
  stats.bytes += headers['content-length'];
});

const paths = ['/', '/about', '/products', '/cart', '/help'];
let next = 0;
function serveBatch(batch) {
  for (let i = 0; i < 25; i++, next++) {
    const path = paths[next % paths.length];
    server.emit('request', 'GET ' + path + ' user=u' + (next % 7) + '&page=' + (next % 3), next);
  }
  if (batch < 20) setImmediate(serveBatch, batch + 1);
  else console.log('served %d requests (%d bytes) to %d users', stats.served, stats.bytes, sessions.size);
}
setImmediate(serveBatch, 1);
