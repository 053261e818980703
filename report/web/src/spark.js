// Sparklines: a site's live objects as an area, its stale ones as a line,
// in a small inline SVG coloured by the style sheet.
import { s, isNum } from './util.js';

function points(vals, n, w, ht, max) {
  const out = [];
  const step = n > 1 ? w / (n - 1) : 0;
  for (let i = 0; i < n; i++) {
    const v = isNum(vals[i]) ? vals[i] : 0;
    out.push([+(i * step).toFixed(1), +(ht - (v / max) * (ht - 1.5) - 0.75).toFixed(1)]);
  }
  return out;
}

// spark returns an SVG of live and stale (arrays of one length), w by ht
// user units, stretched to the element's size.
export function spark(live, stale, w = 120, ht = 24, cls = 'spark') {
  live = live || [];
  stale = stale || [];
  const n = Math.max(live.length, stale.length);
  const svg = s('svg', { class: cls, viewBox: '0 0 ' + w + ' ' + ht, preserveAspectRatio: 'none', 'aria-hidden': 'true', focusable: 'false' });
  if (n === 0) return svg;
  let max = 1;
  for (const v of live) if (isNum(v) && v > max) max = v;
  for (const v of stale) if (isNum(v) && v > max) max = v;
  if (n === 1) {
    live = [live[0], live[0]];
    stale = [stale[0], stale[0]];
  }
  const m = Math.max(n, 2);
  const lp = points(live, m, w, ht, max);
  const sp = points(stale, m, w, ht, max);
  const line = (ps) => ps.map((p, i) => (i ? 'L' : 'M') + p[0] + ' ' + p[1]).join('');
  svg.appendChild(s('path', { class: 'spark-live', d: line(lp) + 'L' + w + ' ' + ht + 'L0 ' + ht + 'Z' }));
  svg.appendChild(s('path', { class: 'spark-live-line', d: line(lp) }));
  svg.appendChild(s('path', { class: 'spark-stale', d: line(sp) }));
  return svg;
}
