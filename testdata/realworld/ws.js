// ws: a websocket server and client over loopback.
const { WebSocketServer, WebSocket } = require('ws');
const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' }, () => {
  const ws = new WebSocket('ws://127.0.0.1:' + wss.address().port);
  let n = 0;
  ws.on('open', () => ws.send('hello'));
  ws.on('message', (m) => { console.log('client got', String(m)); if (++n < 3) ws.send('again' + n); else { ws.close(); wss.close(); } });
});
wss.on('connection', (s) => s.on('message', (m) => s.send('echo:' + m)));
