// A page's run-time code (eval, new Function, string timers) instrumented
// by the instrument service of the server that served the page (memtrace
// serve's, the proxy's: /__memtrace__/instrument, docs/instrument-
// service.md, HTTP): the engine compiles such code synchronously, so the
// request is a synchronous XMLHttpRequest (main thread and workers alike).
// The core caches results by content (core.js, instrumentCode). The
// natives are the ones found before the page runs.

import { apply } from '../natives.js';

// instrumentService returns the host's instrument(name, strict, global,
// source, kind): {code, sites} (the site table apart), null when memtrace
// cannot instrument the code (it runs as it is), or undefined when the
// service cannot be reached (said once; the code runs as it is). kind:
// undefined for eval code; 'handler' (an event handler attribute's
// function body), 'script' or 'module' (a script element's text) for the
// DOM's model, their site tables in their code.
export function instrumentService(G, url, say) {
  const XHR = G.XMLHttpRequest;
  const Enc = G.TextEncoder;
  if (typeof XHR !== 'function' || typeof Enc !== 'function') return undefined;
  const P = XHR.prototype;
  const open = P.open, send = P.send, setHeader = P.setRequestHeader;
  const statusOf = Object.getOwnPropertyDescriptor(P, 'status').get;
  const textOf = Object.getOwnPropertyDescriptor(P, 'responseText').get;
  const encode = Enc.prototype.encode;
  const enc = new Enc();
  const stringify = JSON.stringify, parse = JSON.parse, $JSON = JSON;
  const indexOf = String.prototype.indexOf, slice = String.prototype.slice;
  const $Uint8Array = Uint8Array;
  const set = Object.getPrototypeOf(Uint8Array.prototype).set;
  let broken = false;
  // post sends body to the service (query: what follows its address) and
  // returns the answer's text, or undefined when it cannot.
  function post(query, body) {
    const x = new XHR();
    try {
      apply(open, x, ['POST', url + query, false]);
      apply(setHeader, x, ['Content-Type', 'application/octet-stream']);
      apply(send, x, [body]);
    } catch (e) {
      broken = true;
      say('the instrument service at ' + url + ' cannot be reached (' + (e && e.message) + '): run-time code runs uninstrumented');
      return undefined;
    }
    const st = apply(statusOf, x, []);
    if (st !== 200) {
      broken = true;
      say('the instrument service at ' + url + ' answered ' + st + ': run-time code runs uninstrumented');
      return undefined;
    }
    return apply(textOf, x, []);
  }
  const encodeURI = encodeURIComponent;
  function instrument(name, strict, global, source, kind) {
    if (broken) return undefined;
    const src = apply(encode, enc, [source]);
    const req = kind === 'handler' ? { id: 1, name, goal: 'commonjs', loader: 'js', len: src.length }
      : kind === 'script' || kind === 'module' ? { id: 1, name, goal: kind, loader: 'js', len: src.length }
        : kind === undefined ? { id: 1, name, goal: 'script', loader: 'js', eval: true, strict, global, sitesApart: true, len: src.length } : undefined;
    if (req === undefined) return undefined;
    const head = apply(encode, enc, [apply(stringify, $JSON, [req]) + '\n']);
    const body = new $Uint8Array(head.length + src.length);
    apply(set, body, [head, 0]);
    apply(set, body, [src, head.length]);
    const text = post('', body);
    if (text === undefined) return undefined;
    const nl = apply(indexOf, text, ['\n']);
    if (nl < 0) return undefined;
    let h;
    try { h = apply(parse, $JSON, [apply(slice, text, [0, nl])]); } catch { return undefined; }
    if (h === null || typeof h !== 'object') return undefined;
    if (typeof h.error === 'string') return null;
    return { code: apply(slice, text, [nl + 1]), sites: typeof h.sites === 'string' ? h.sites : undefined };
  }
  // instrument.html rewrites HTML a page writes (document.write), named
  // name (PAGEPATH#write-N), as the server rewrites pages: its text, or
  // undefined.
  instrument.html = (name, text) => broken ? undefined : post('&kind=html&name=' + encodeURI(name), apply(encode, enc, [text]));
  // instrument.integrity gives the integrity value of the script at src
  // (as the page of URL page wrote it) for the bytes the server serves,
  // in place of old: its text ('' leaves old), or undefined.
  instrument.integrity = (page, src, module, old) => broken ? undefined
    : post('&kind=integrity&page=' + encodeURI(page) + '&src=' + encodeURI(src) + '&module=' + (module ? '1' : '') + '&old=' + encodeURI(old), new $Uint8Array(0));
  return instrument;
}
