// Source frames: the lines around a site, numbered, its range marked.
import { h, isNum, arr } from './util.js';

// codeFrame renders frame f; o.context limits it to that many lines around
// the mark; o.id names the element.
export function codeFrame(f, o = {}) {
  const lines = arr(f && f.lines).map((l) => String(l == null ? '' : l));
  const first = isNum(f && f.first) ? f.first : 1;
  const mk = (f && f.mark) || {};
  const ml = isNum(mk.line) ? mk.line : first;
  const mc = isNum(mk.col) ? mk.col : 1;
  const el = isNum(mk.endLine) ? mk.endLine : ml;
  const ec = isNum(mk.endCol) ? mk.endCol : mc + 1;
  let from = 0;
  let to = lines.length;
  if (isNum(o.context)) {
    from = Math.max(0, ml - first - o.context);
    to = Math.min(lines.length, el - first + o.context + 1);
  }
  const width = String(first + to - 1).length;
  const code = h('code');
  for (let i = from; i < to; i++) {
    const n = first + i;
    const text = lines[i];
    const marked = n >= ml && n <= el;
    const row = h('span', { class: marked ? 'line marked' : 'line', dataset: { line: n } });
    row.appendChild(h('span', { class: 'ln', 'aria-hidden': 'true' }, String(n).padStart(width, ' ')));
    const src = h('span', { class: 'src' });
    if (marked) {
      let a = n === ml ? mc - 1 : 0;
      let b = n === el ? ec - 1 : text.length;
      a = Math.max(0, Math.min(a, text.length));
      b = Math.max(a, Math.min(b, text.length));
      if (b === a && a < text.length && ml === el) b = a + 1;
      if (a > 0) src.append(text.slice(0, a));
      src.appendChild(h('mark', null, text.slice(a, b)));
      if (b < text.length) src.append(text.slice(b));
    } else src.append(text);
    row.appendChild(src);
    code.appendChild(row);
    code.append('\n');
  }
  const file = (f && f.file) || '';
  const loc = file + ':' + ml + ':' + mc;
  const cap = h(
    'figcaption',
    null,
    h('span', { class: 'loc' }, loc),
    f && f.origin ? h('span', { class: 'origin', title: f.origin === 'disk' ? 'read from the file on disk after the run: it may have changed since' : 'the source the program ran' }, f.origin === 'disk' ? 'from disk' : 'as run') : null
  );
  return h('figure', { class: o.compact ? 'frame compact' : 'frame', id: o.id || null }, cap, h('pre', { tabindex: o.compact ? null : '0', 'aria-label': 'source around ' + loc }, code));
}
