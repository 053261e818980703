// The detached DOM page and the baseline page.
import { h, num, plain, isNum, plural } from './util.js';
import { badge, siteLink } from './model.js';
import { retainerList } from './retainers.js';

export function domPage(main, data) {
  const groups = data.detached.filter((d) => d && typeof d === 'object');
  main.appendChild(h('h1', { tabindex: '-1' }, 'Detached DOM nodes'));
  if (!groups.length) {
    main.appendChild(h('p', { class: 'empty' }, 'No DOM node was off the document and still reachable at the end of the run.'));
    return {};
  }
  const nodes = groups.reduce((a, g) => a + (isNum(g.nodes) ? g.nodes : 0), 0);
  main.appendChild(h('p', { class: 'hint' }, plural(nodes, 'node') + ' off the document but reachable at the end of the run, by the site that made them, with what retains them.'));
  for (const g of groups) {
    const site = data.byId.get(g.site);
    main.appendChild(
      h(
        'section',
        { class: 'panel detached', dataset: { siteId: isNum(g.site) ? g.site : null, nodes: plain(g.nodes) } },
        h('div', { class: 'panel-head' }, h('h2', null, siteLink(data, g.site)), site ? badge(site) : null, h('span', { class: 'count-big' }, plural(g.nodes, 'detached node'))),
        retainerList(data, g.retainers, { target: 'the nodes', emptyText: 'No retaining path recorded.' })
      )
    );
  }
  return {};
}

// The totals, and whether more is worse (coloured so) or just more.
const TOTAL_ROWS = [
  ['sites', 'Sites', false],
  ['allocated', 'Objects allocated', false],
  ['maxLive', 'Peak live', true],
  ['maxStale', 'Peak stale', true],
  ['unused', 'Unused', true],
  ['leakingSites', 'Leaking sites', true],
  ['oneAliveAtATimeSites', 'One-at-a-time sites', false],
  ['nonEscapingSites', 'Non-escaping sites', false],
  ['idlePoints', 'Idle points', false],
  ['liveAtEnd', 'Live at end', true],
];

function delta(a, b, worse) {
  if (!isNum(a) || !isNum(b)) return h('td', { class: 'num' }, '');
  const d = b - a;
  const cls = d === 0 || !worse ? 'same' : d > 0 ? 'up' : 'down';
  return h('td', { class: ['num', 'delta', cls], dataset: { value: String(d) } }, d === 0 ? '=' : (d > 0 ? '+' : '\u2212') + num(Math.abs(d)));
}

function arrow(a, b) {
  return h('td', { class: 'num fromto', dataset: { from: plain(a), to: plain(b) } }, h('span', { class: 'muted' }, num(a)), ' \u2192 ', h('strong', null, num(b)));
}

export function baselinePage(main, data) {
  const b = data.baseline;
  main.appendChild(h('h1', { tabindex: '-1' }, 'Against the baseline'));
  if (!b) {
    main.appendChild(h('p', { class: 'empty' }, 'This report has no baseline: make one with --baseline OTHER.'));
    return {};
  }
  main.appendChild(h('p', { class: 'hint' }, 'The baseline is ', h('span', { class: 'loc' }, b.name || 'another trace'), '; this run is ', h('span', { class: 'loc' }, data.run.trace || data.title || 'this trace'), '.'));
  const tb = h('tbody');
  for (const [k, label, worse] of TOTAL_ROWS) {
    const x = b.totals[k];
    const y = data.totals[k];
    tb.appendChild(h('tr', { dataset: { baselineTotal: k } }, h('th', { scope: 'row' }, label), h('td', { class: 'num', dataset: { value: plain(x) } }, num(x)), h('td', { class: 'num', dataset: { value: plain(y) } }, num(y)), delta(x, y, worse)));
  }
  main.appendChild(
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'bt-title' },
      h('h2', { id: 'bt-title' }, 'Totals'),
      h('div', { class: 'table-wrap' }, h('table', { class: 'compare' }, h('thead', null, h('tr', null, h('th', { scope: 'col' }, ''), h('th', { scope: 'col', class: 'num' }, 'baseline'), h('th', { scope: 'col', class: 'num' }, 'this run'), h('th', { scope: 'col', class: 'num' }, 'change'))), tb))
    )
  );
  const grew = b.grew.filter((g) => g && typeof g === 'object');
  const gb = h('tbody');
  for (const g of grew) {
    const marks = [];
    if (g.leaking1 && !g.leaking0) marks.push(h('span', { class: 'badge badge-leaking' }, 'LEAKING now'));
    else if (g.leaking1) marks.push(h('span', { class: 'badge badge-leaking badge-soft' }, 'leaking, as before'));
    else if (g.leaking0) marks.push(h('span', { class: 'badge badge-never-stale' }, 'no longer leaking'));
    if (g.isNew) marks.push(h('span', { class: 'badge badge-new' }, 'new'));
    const site = isNum(g.site) ? data.byId.get(g.site) : null;
    gb.appendChild(
      h(
        'tr',
        { dataset: { siteId: site ? site.id : null } },
        h('td', { class: 'where', dataset: { field: 'where', value: g.where || '' } }, site ? siteLink(data, site.id) : h('span', { class: 'loc' }, g.where || 'unknown')),
        arrow(g.stale0, g.stale1),
        arrow(g.alloc0, g.alloc1),
        h('td', null, h('div', { class: 'marks' }, marks))
      )
    );
  }
  if (!grew.length) gb.appendChild(h('tr', { class: 'empty-row' }, h('td', { colspan: 4 }, 'No site grew since the baseline.')));
  main.appendChild(
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'grew-title' },
      h('h2', { id: 'grew-title' }, grew.length ? plural(grew.length, 'site') + ' grew' : 'Sites that grew'),
      h('p', { class: 'hint' }, 'Peak stale and allocated objects, baseline \u2192 this run; the most grown first.'),
      h(
        'div',
        { class: 'table-wrap' },
        h('table', { class: 'grew', id: 'grew-table' }, h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Site'), h('th', { scope: 'col', class: 'num' }, 'Stale'), h('th', { scope: 'col', class: 'num' }, 'Allocated'), h('th', { scope: 'col' }, ''))), gb)
      )
    )
  );
  return {};
}
