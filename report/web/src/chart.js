// Timeline charts (uPlot): live and stale objects against logical time,
// snapshot times marked, an optional cursor at a chosen moment. Colours are
// the page's custom properties, read at each draw, so the charts follow the
// colour scheme.
import uPlot from 'uplot';
import { cssVar, onSchemeChange } from './theme.js';
import { h, num, short, isNum } from './util.js';

const FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const LABEL_FONT = '600 11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

// series makes the chart's x and y arrays: x from 0 (nothing was alive
// before the first entry), values null where a series is short.
function series(t, live, stale) {
  const x = [];
  const l = [];
  const s = [];
  if (t.length && t[0] > 0) {
    x.push(0);
    l.push(0);
    s.push(0);
  }
  for (let i = 0; i < t.length; i++) {
    x.push(t[i]);
    l.push(isNum(live[i]) ? live[i] : null);
    s.push(isNum(stale[i]) ? stale[i] : null);
  }
  return [x, l, s];
}

// ticks writes an axis's values in one style: all in thousands when the
// largest is, else in full.
function ticks(vals) {
  let max = 0;
  for (const v of vals) if (v != null && Math.abs(v) > max) max = Math.abs(v);
  if (max >= 1e6 || max < 1e4) return vals.map((v) => (v == null ? '' : short(v)));
  return vals.map((v) => (v == null ? '' : v === 0 ? '0' : (Math.round(v / 100) / 10).toString() + 'k'));
}

// Both axes count (entries, objects): their ticks are whole numbers.
const INCRS = [];
for (let p = 1; p <= 1e15; p *= 10) INCRS.push(p, 2 * p, 5 * p);

function axis(label, size) {
  return {
    label,
    incrs: INCRS,
    size,
    font: FONT,
    labelFont: LABEL_FONT,
    labelSize: 16,
    labelGap: 2,
    stroke: () => cssVar('--muted'),
    grid: { stroke: () => cssVar('--grid'), width: 1 },
    ticks: { stroke: () => cssVar('--grid'), width: 1, size: 4 },
    values: (u, vals) => ticks(vals),
  };
}

// timelineChart draws into el (emptied) and returns {setMoment, destroy}.
// o: {t, live, stale, height, markers: times, moment: time or null,
// onPick(time) for a click on the plot, label: what it shows, in words}.
export function timelineChart(el, o) {
  const t = o.t || [];
  if (!t.length) {
    el.appendChild(h('p', { class: 'empty chart-empty' }, o.emptyText || 'No timeline: the trace has no entries.'));
    return { setMoment() {}, destroy() {} };
  }
  const data = series(t, o.live || [], o.stale || []);
  const markers = (o.markers || []).filter(isNum);
  let moment = isNum(o.moment) ? o.moment : null;
  const height = o.height || 240;

  const peakLive = Math.max(0, ...data[1].filter(isNum));
  const peakStale = Math.max(0, ...data[2].filter(isNum));
  const legend = h('div', { class: 'chart-legend', 'aria-hidden': 'true' });
  const liveVal = h('span', { class: 'lv' });
  const staleVal = h('span', { class: 'lv' });
  const atVal = h('span', { class: 'at' });
  legend.appendChild(h('span', { class: 'key key-live' }, h('i'), 'live ', liveVal));
  legend.appendChild(h('span', { class: 'key key-stale' }, h('i'), 'stale ', staleVal));
  if (markers.length) legend.appendChild(h('span', { class: 'key key-snap' }, h('i'), 'snapshots'));
  legend.appendChild(atVal);
  const showPeaks = () => {
    liveVal.textContent = 'peak ' + num(peakLive);
    staleVal.textContent = 'peak ' + num(peakStale);
    atVal.textContent = '';
  };
  showPeaks();
  const plot = h('div', { class: 'chart-plot' });
  el.append(legend, plot);

  const drawMarks = (u) => {
    const ctx = u.ctx;
    const { left, top, width, height: ht } = u.bbox;
    const px = uPlot.pxRatio || 1;
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, width, ht);
    ctx.clip();
    ctx.font = Math.round(10 * px) + 'px system-ui, sans-serif';
    ctx.textBaseline = 'top';
    const snap = cssVar('--snap');
    markers.forEach((m, i) => {
      const x = Math.round(u.valToPos(m, 'x', true)) + 0.5;
      ctx.strokeStyle = snap;
      ctx.lineWidth = px;
      ctx.setLineDash([4 * px, 3 * px]);
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + ht);
      ctx.stroke();
      ctx.fillStyle = m === moment ? cssVar('--moment') : snap;
      ctx.fillText('S' + (i + 1), x + 3 * px, top + 2 * px);
    });
    if (moment != null) {
      const x = Math.round(u.valToPos(moment, 'x', true));
      ctx.setLineDash([]);
      ctx.strokeStyle = cssVar('--moment');
      ctx.lineWidth = 2 * px;
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + ht);
      ctx.stroke();
    }
    ctx.restore();
  };

  const opts = {
    width: Math.max(200, el.clientWidth || 600),
    height,
    legend: { show: false },
    padding: [12, 12, 0, 4],
    cursor: {
      drag: { x: true, y: false, setScale: true },
      points: { size: 7, width: 1.5, fill: () => cssVar('--surface') },
    },
    scales: {
      x: { time: false },
      y: { range: (u, min, max) => [0, max > 0 ? max * 1.08 : 1] },
    },
    axes: [axis(o.xLabel || 'entries', 34), axis('objects', 56)],
    series: [
      { label: 'entries', value: (u, v) => num(v) },
      { label: 'live', stroke: () => cssVar('--live'), fill: () => cssVar('--live-fill'), width: 1.5, points: { show: false } },
      { label: 'stale', stroke: () => cssVar('--stale'), fill: () => cssVar('--stale-fill'), width: 1.5, points: { show: false } },
    ],
    hooks: {
      draw: [drawMarks],
      setCursor: [
        (u) => {
          const i = u.cursor.idx;
          if (i == null || i < 0) return showPeaks();
          liveVal.textContent = num(data[1][i]);
          staleVal.textContent = num(data[2][i]);
          atVal.textContent = 'at ' + num(data[0][i]) + ' entries';
        },
      ],
    },
  };
  const u = new uPlot(opts, data, plot);
  u.root.setAttribute('aria-hidden', 'true');

  // A click (not a drag, which zooms) picks the moment nearest to it.
  let down = null;
  u.over.addEventListener('mousedown', (e) => {
    down = [e.clientX, e.clientY];
  });
  u.over.addEventListener('click', (e) => {
    if (!o.onPick) return;
    if (down && Math.abs(e.clientX - down[0]) + Math.abs(e.clientY - down[1]) > 4) return;
    const rect = u.over.getBoundingClientRect();
    o.onPick(u.posToVal(e.clientX - rect.left, 'x'));
  });
  if (o.onPick) u.over.classList.add('pickable');

  const stopScheme = onSchemeChange(() => u.redraw(false));
  let ro = null;
  let lastW = 0;
  let gone = false;
  const fit = () => {
    if (gone) return;
    const w = Math.floor(el.clientWidth);
    if (w > 0 && w !== lastW) {
      lastW = w;
      u.setSize({ width: w, height });
    }
  };
  if (typeof ResizeObserver === 'function') {
    ro = new ResizeObserver(() => window.requestAnimationFrame(fit));
    ro.observe(el);
  } else window.addEventListener('resize', fit);
  return {
    setMoment(m) {
      moment = isNum(m) ? m : null;
      u.redraw(false);
    },
    destroy() {
      gone = true;
      stopScheme();
      if (ro) ro.disconnect();
      else window.removeEventListener('resize', fit);
      u.destroy();
    },
  };
}
