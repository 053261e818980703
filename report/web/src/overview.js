// The overview: what ran, the totals, the program's timeline, the top
// sites in detail and the table of all of them.
import { h, num, plain, bytes, when, duration, isNum, codeText, plural, breakable } from './util.js';
import { badge, verdictRest, siteHref } from './model.js';
import { timelineChart } from './chart.js';
import { sitesTable, tableState } from './table.js';
import { codeFrame } from './frame.js';
import { spark } from './spark.js';

const CARDS = 5;

function runBlock(data) {
  const run = data.run;
  const chips = [];
  if (run.kind) chips.push(h('span', { class: 'chip chip-kind' }, String(run.kind)));
  if (run.status === 'complete') chips.push(h('span', { class: 'chip chip-ok' }, 'complete'));
  else if (run.status) chips.push(h('span', { class: 'chip chip-warn', title: run.reason || null }, String(run.status)));
  const rows = [];
  const row = (k, v, attrs) => {
    if (v != null && v !== '') rows.push(h('div', attrs, h('dt', null, k), h('dd', null, v)));
  };
  if (run.status && run.status !== 'complete') row('Why incomplete', run.reason || 'not said', { class: 'warn-row wide' });
  row('Trace', run.trace ? h('span', { class: 'loc' }, run.trace) : null, { class: 'wide' });
  row('Started', run.started ? h('time', { datetime: run.started, title: run.started }, when(run.started)) : null);
  if (run.ended) {
    const d = run.started ? duration(run.started, run.ended) : '';
    row('Ended', h('span', null, h('time', { datetime: run.ended, title: run.ended }, when(run.ended)), d ? h('span', { class: 'muted' }, ' \u00b7 ran ' + d) : null));
  }
  row('Agent', run.agent, run.agent && run.agent.length > 40 ? { class: 'wide' } : null);
  row('memtrace', run.memtrace);
  if (isNum(run.bytes) || isNum(run.entries)) row('Trace size', [isNum(run.bytes) ? h('span', { title: num(run.bytes) + ' bytes' }, bytes(run.bytes)) : null, isNum(run.bytes) && isNum(run.entries) ? ', ' : null, isNum(run.entries) ? plural(run.entries, 'entry', 'entries') : null]);
  return h(
    'section',
    { class: 'run', 'aria-labelledby': 'run-title' },
    h('h1', { id: 'run-title', tabindex: '-1' }, h('span', { class: 'what' }, breakable(run.what || data.title || 'memtrace report')), ' ', chips),
    h('dl', { class: 'facts' }, rows)
  );
}

const TOTALS = [
  ['entries', 'Entries', 'trace entries: the logical time of the run'],
  ['allocated', 'Objects allocated', null],
  ['maxLive', 'Peak live', 'the most objects alive at once'],
  ['maxStale', 'Peak stale', 'the most objects alive past their last use at once'],
  ['sites', 'Sites', 'allocation sites'],
  ['leakingSites', 'Leaking sites', 'sites whose stale objects kept growing to the end'],
  ['idlePoints', 'Idle points', 'moments the call stack was empty (turns of the event loop)'],
  ['liveAtEnd', 'Live at end', 'objects never found unreachable'],
];
const MORE_TOTALS = [
  ['unused', 'Unused', 'objects never used after their creation'],
  ['oneAliveAtATimeSites', 'One-at-a-time sites', 'sites with never more than one object alive'],
  ['nonEscapingSites', 'Non-escaping sites', 'sites whose objects all died inside the call that made them'],
];

function totalsBlock(data) {
  const tot = Object.assign({}, data.totals, { entries: data.run.entries });
  const tile = ([key, label, title], small) => {
    const v = tot[key];
    const bad = key === 'leakingSites' && v > 0;
    return h(
      'div',
      { class: ['tile', small ? 'tile-small' : '', bad ? 'tile-bad' : ''], title },
      h('div', { class: 'tile-label' }, label),
      h('div', { class: ['tile-value', num(v).length > 11 && !small ? 'long' : ''], dataset: { total: key, value: plain(v) } }, num(v))
    );
  };
  return h(
    'section',
    { class: 'totals', 'aria-label': 'totals' },
    h('div', { class: 'tiles' }, TOTALS.map((t) => tile(t))),
    h('div', { class: 'tiles tiles-small' }, MORE_TOTALS.map((t) => tile(t, true)))
  );
}

function baselineLine(data) {
  const b = data.baseline;
  if (!b) return null;
  const grew = b.grew.length;
  const now = b.grew.filter((g) => g && g.leaking1 && !g.leaking0).length;
  return h(
    'p',
    { class: 'baseline-line' },
    'Against ',
    h('span', { class: 'loc' }, b.name || 'the baseline'),
    ': ',
    h('a', { href: '#baseline', id: 'baseline-link' }, grew === 0 ? 'no site grew' : plural(grew, 'site') + ' grew'),
    now ? h('span', { class: 'badge badge-leaking' }, plural(now, 'site') + ' leaking now') : null
  );
}

function card(data, site) {
  const det = site.detail;
  const first = det && det.retainers.length ? det.retainers[0] : null;
  const rest = verdictRest(site);
  const tl = det ? det.timeline : site.spark;
  return h(
    'article',
    { class: ['card', 'site-card', site.leaking ? 'is-leaking' : ''], dataset: { siteId: site.id } },
    h('header', null, h('span', { class: 'rank' }, '#' + (site.id + 1)), h('a', { class: 'loc card-title', href: siteHref(site.id), title: site.site }, breakable(site.where)), badge(site)),
    rest ? h('p', { class: 'verdict-text' }, rest) : null,
    first ? h('p', { class: 'retained' }, h('span', { class: 'muted' }, 'Retained: '), codeText(first.text)) : null,
    det && det.frame ? codeFrame(det.frame, { context: 2, compact: true }) : null,
    h(
      'footer',
      null,
      tl ? spark(tl.live, tl.stale, 300, 40, 'spark spark-card') : null,
      h(
        'dl',
        { class: 'mini' },
        h('div', null, h('dt', null, 'stale'), h('dd', { class: site.leaking ? 'has-stale' : null }, num(site.maxStale))),
        h('div', null, h('dt', null, 'live'), h('dd', null, num(site.maxLive))),
        h('div', null, h('dt', null, 'allocated'), h('dd', null, num(site.allocated)))
      )
    )
  );
}

export function overview(main, data, ctx) {
  main.append(runBlock(data), totalsBlock(data));
  const bl = baselineLine(data);
  if (bl) main.appendChild(bl);

  const tl = data.timeline;
  const chartEl = h('div', { class: 'chart', role: 'img', 'aria-label': 'live and stale objects of the whole program over ' + num(data.end) + ' entries: peak live ' + num(data.totals.maxLive) + ', peak stale ' + num(data.totals.maxStale) });
  const snaps = data.snapshots;
  main.appendChild(
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'timeline-title' },
      h('h2', { id: 'timeline-title' }, 'Live and stale objects over the run'),
      h('p', { class: 'hint' }, 'Live: allocated and not yet unreachable. Stale: still reachable after their last use. The largest count in each stretch of the run' + (snaps.length ? '; S1\u2026S' + snaps.length + ' mark when retainers were taken' : '') + '. Drag to zoom, double-click to zoom out.'),
      chartEl
    )
  );

  const top = data.sites.slice(0, CARDS);
  if (top.length) {
    main.appendChild(
      h(
        'section',
        { class: 'top', 'aria-labelledby': 'top-title' },
        h('h2', { id: 'top-title' }, top.length === 1 ? 'The top site' : 'The top ' + top.length + ' sites'),
        h('div', { class: 'cards' }, top.map((site) => card(data, site)))
      )
    );
  }

  const table = sitesTable(data, ctx.nav);
  main.appendChild(h('section', { class: 'panel sites-panel', 'aria-labelledby': 'sites-title' }, h('h2', { id: 'sites-title' }, 'All sites'), table.el));

  // The chart is drawn once in the page, at its width.
  const chart = timelineChart(chartEl, { t: tl.t, live: tl.live, stale: tl.stale, markers: snaps, height: 260 });

  return {
    destroy: () => chart.destroy(),
    focusFilter() {
      table.focusFilter();
      table.filter.scrollIntoView({ block: 'center' });
    },
    // restore: back from a site's page, its row has the focus.
    restore: () => tableState.cursor != null && table.focusCurrent(),
    onKey(e, inTable) {
      switch (e.key) {
        case 'j':
          table.move(1);
          return true;
        case 'k':
          table.move(-1);
          return true;
        case 'ArrowDown':
        case 'ArrowUp':
          if (!inTable(table)) return false;
          table.move(e.key === 'ArrowDown' ? 1 : -1);
          return true;
        case 'Home':
        case 'End':
          if (!inTable(table)) return false;
          if (e.key === 'Home') table.first();
          else table.last();
          return true;
        case 'Enter':
          return table.open();
      }
      return false;
    },
  };
}
