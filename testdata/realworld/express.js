// An express service over loopback: routing, JSON bodies, a 404, and a
// list that grows with every request.
const express = require('express');
const http = require('http');
const app = express();
const seen = [];
app.use(express.json());
app.get('/hello/:name', (req, res) => { seen.push({ name: req.params.name, at: seen.length }); res.json({ hi: req.params.name, n: seen.length }); });
app.post('/echo', (req, res) => res.send(req.body));
const server = app.listen(0, '127.0.0.1', async () => {
  const port = server.address().port;
  const get = (p, body) => new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: p, method: body ? 'POST' : 'GET', headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      let d = ''; res.setEncoding('utf8'); res.on('data', (c) => { d += c; }); res.on('end', () => resolve(res.statusCode + ' ' + d.length + ' ' + (res.statusCode === 200 ? d : '')));
    });
    req.on('error', reject);
    if (body) req.write(JSON.stringify(body));
    req.end();
  });
  for (let i = 0; i < 10; i++) console.log(await get('/hello/u' + i));
  console.log(await get('/echo', { a: [1, 2, 3] }));
  console.log(await get('/missing'));
  server.close();
});
