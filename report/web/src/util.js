// Small DOM and formatting helpers. Everything the page shows from the data
// goes through textContent or attributes: never HTML.

const SVG_NS = 'http://www.w3.org/2000/svg';

function applyAttrs(el, attrs) {
  if (!attrs) return;
  for (const k of Object.keys(attrs)) {
    const v = attrs[k];
    if (v == null || v === false) continue;
    if (k === 'class') el.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : v);
    else if (k === 'text') el.textContent = String(v);
    else if (k === 'dataset') {
      for (const d of Object.keys(v)) if (v[d] != null) el.dataset[d] = String(v[d]);
    } else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

function appendKids(el, kids) {
  for (const c of kids) {
    if (c == null || c === false) continue;
    if (Array.isArray(c)) appendKids(el, c);
    else el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// h makes an element: h('a', {href: '#x', class: 'y'}, 'text', child, ...).
export function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  applyAttrs(el, attrs);
  appendKids(el, kids);
  return el;
}

// s makes an SVG element.
export function s(tag, attrs, ...kids) {
  const el = document.createElementNS(SVG_NS, tag);
  applyAttrs(el, attrs);
  appendKids(el, kids);
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

const nf = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

// num writes a count with thousands separators ("–" when absent).
export function num(n) {
  return typeof n === 'number' && isFinite(n) ? nf.format(n) : '–';
}

// plain is a count as the test hooks carry it: digits, no separators.
export function plain(n) {
  return typeof n === 'number' && isFinite(n) ? String(Math.round(n)) : '';
}

// short writes a count for an axis: 950, 12k, 1.2M.
export function short(n) {
  const a = Math.abs(n);
  if (a >= 1e9) return trim(n / 1e9) + 'G';
  if (a >= 1e6) return trim(n / 1e6) + 'M';
  if (a >= 1e4) return trim(n / 1e3) + 'k';
  return nf.format(n);
}

function trim(x) {
  const r = Math.abs(x) >= 100 ? Math.round(x) : Math.round(x * 10) / 10;
  return String(r);
}

export function plural(n, one, many) {
  return num(n) + ' ' + (n === 1 ? one : many || one + 's');
}

export function bytes(n) {
  if (typeof n !== 'number' || !isFinite(n)) return '–';
  if (n >= 1 << 30) return (n / (1 << 30)).toFixed(1) + ' GB';
  if (n >= 1 << 20) return (n / (1 << 20)).toFixed(1) + ' MB';
  if (n >= 1 << 10) return Math.round(n / (1 << 10)) + ' KB';
  return nf.format(n) + ' bytes';
}

// when writes an RFC 3339 time in the reader's time zone, or the text
// itself when it does not parse.
export function when(t) {
  const d = new Date(t);
  if (!t || isNaN(d.getTime())) return t || '';
  const p = (x) => String(x).padStart(2, '0');
  return d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate()) + ' ' + p(d.getHours()) + ':' + p(d.getMinutes()) + ':' + p(d.getSeconds());
}

export function duration(a, b) {
  const ms = new Date(b).getTime() - new Date(a).getTime();
  if (!isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return ms > 0 && /\.\d/.test(b) ? ms + ' ms' : 'under a second';
  const sec = ms / 1000;
  if (sec < 60) return (sec < 10 ? sec.toFixed(1) : Math.round(sec)) + ' s';
  const m = Math.floor(sec / 60);
  const r = Math.round(sec - m * 60);
  if (m < 60) return m + ' min ' + r + ' s';
  return Math.floor(m / 60) + ' h ' + (m % 60) + ' min';
}

// arr is v when it is an array, else an empty one: optional fields and
// malformed documents render as empty.
export function arr(v) {
  return Array.isArray(v) ? v : [];
}

export function isNum(v) {
  return typeof v === 'number' && isFinite(v);
}

// breakable is a path with <wbr> after each '/', so that a long one wraps
// between its directories rather than anywhere.
export function breakable(text) {
  const parts = String(text).split('/');
  const out = [];
  parts.forEach((p, i) => {
    if (i) out.push('/', document.createElement('wbr'));
    if (p) out.push(p);
  });
  return out;
}

// codeText renders text with `backticked` parts as <code>. The backticks
// stay in the text (hidden), so that the words read and copy as written.
export function codeText(text) {
  const parts = String(text == null ? '' : text).split('`');
  const out = [];
  const tick = () => h('span', { class: 'tick', 'aria-hidden': 'true' }, '`');
  parts.forEach((p, i) => {
    if (i % 2 === 1 && i < parts.length - 1) out.push(h('code', null, tick(), p, tick()));
    else if (i % 2 === 1) out.push('`' + p);
    else if (p) out.push(p);
  });
  return out;
}

// inEditable says whether keys typed at el are text for it.
export function inEditable(el) {
  if (!el || el === document.body) return false;
  const t = el.tagName;
  if (t === 'TEXTAREA' || t === 'SELECT' || el.isContentEditable) return true;
  if (t === 'INPUT') {
    const type = (el.getAttribute('type') || 'text').toLowerCase();
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color'].includes(type);
  }
  return false;
}
