// A site's page: its figures, source, timeline, what retains its objects
// (at the end or at a snapshot), its calling contexts and last uses.
import { h, num, plain, isNum, plural, clear, breakable } from './util.js';
import { badge, verdictRest, siteHref } from './model.js';
import { timelineChart } from './chart.js';
import { codeFrame } from './frame.js';
import { retainerList } from './retainers.js';

// The moment each site's retainers were last shown at, for coming back.
const moments = new Map();

function pct(n, of) {
  if (!of || !isNum(n)) return '';
  const p = (n / of) * 100;
  return p >= 99.5 && n < of ? '>99%' : p < 1 && n > 0 ? '<1%' : Math.round(p) + '%';
}

function figures(site, total) {
  const f = (field, label, title) =>
    h('div', { class: ['tile', field === 'maxStale' && site.leaking ? 'tile-stale' : ''], title }, h('div', { class: 'tile-label' }, label), h('div', { class: ['tile-value', num(site[field]).length > 11 ? 'long' : ''], dataset: { field, value: plain(site[field]) } }, num(site[field])));
  return h(
    'div',
    { class: 'tiles site-tiles' },
    f('maxStale', 'Peak stale', 'the most of its objects reachable after their last use at once'),
    f('maxLive', 'Peak live', 'the most of its objects alive at once'),
    f('allocated', 'Allocated', 'objects allocated here'),
    f('unused', 'Unused', 'objects never used after their creation'),
    h('div', { class: 'tile', title: 'leaking first, then by stale, then by allocated' }, h('div', { class: 'tile-label' }, 'Rank'), h('div', { class: 'tile-value' }, '#' + num(site.id + 1), h('span', { class: 'of' }, ' of ' + num(total))))
  );
}

function frameName(fr) {
  if (fr.name) return [h('span', { class: 'fn-name' }, fr.name), ' ', h('span', { class: 'loc muted' }, fr.fn || '')];
  return [h('span', { class: 'loc' }, fr.fn || 'unknown function')];
}

function contextsBlock(site) {
  const det = site.detail;
  const list = h('ol', { class: 'contexts' });
  det.contexts.forEach((c) => {
    if (!c || typeof c !== 'object') return;
    const stack = h('ol', { class: 'stack', 'aria-label': 'calls, innermost first' });
    const frames = Array.isArray(c.frames) ? c.frames : [];
    frames.forEach((fr) => {
      if (!fr) return;
      stack.appendChild(h('li', null, frameName(fr), fr.call ? h('span', { class: 'call' }, 'called at ', h('span', { class: 'loc' }, fr.call)) : null));
    });
    if (c.truncated) stack.appendChild(h('li', { class: 'muted' }, '\u2026 outer calls not recorded'));
    list.appendChild(h('li', { class: 'context' }, h('div', { class: 'ctx-head' }, h('strong', null, plural(c.objects, 'object')), ' ', h('span', { class: 'muted' }, pct(c.objects, site.allocated))), stack));
  });
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'contexts-title' },
    h('h2', { id: 'contexts-title' }, 'Calling contexts'),
    h('p', { class: 'hint' }, 'The calls that allocate here, the most objects first; each stack innermost first.'),
    det.contexts.length ? list : h('p', { class: 'empty' }, 'No calling context recorded.'),
    det.otherContexts > 0 ? h('p', { class: 'more-note' }, plural(det.otherContexts, 'more context') + ' not listed') : null
  );
}

function lastUsesBlock(site) {
  const det = site.detail;
  const list = h('ul', { class: 'lastuses' });
  det.lastUses.forEach((u) => {
    if (!u || typeof u !== 'object') return;
    const creation = u.at === 'creation';
    list.appendChild(
      h(
        'li',
        null,
        h('div', { class: 'lu-head' }, creation ? h('span', null, 'at their creation ', h('span', { class: 'muted' }, '(never used after)')) : h('span', { class: 'loc' }, u.at || 'unknown'), ' ', h('strong', null, plural(u.objects, 'object')), ' ', h('span', { class: 'muted' }, pct(u.objects, site.allocated))),
        u.frame ? codeFrame(u.frame, { context: 1, compact: true }) : null
      )
    );
  });
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'lastuses-title' },
    h('h2', { id: 'lastuses-title' }, 'Last uses'),
    h('p', { class: 'hint' }, 'Where its objects were used for the last time; after that, still reachable, they are stale.'),
    det.lastUses.length ? list : h('p', { class: 'empty' }, 'No last use recorded.'),
    det.otherLastUses > 0 ? h('p', { class: 'more-note' }, plural(det.otherLastUses, 'more place') + ' not listed') : null
  );
}

export function sitePage(main, data, id, ctx) {
  const site = data.byId.get(id);
  const n = data.sites.length;
  if (!site) {
    main.append(h('h1', { tabindex: '-1' }, 'No site ' + id), h('p', null, 'This report has ' + plural(n, 'site') + '. ', h('a', { href: '#overview' }, 'Back to the overview')));
    return {};
  }
  const idx = data.sites.indexOf(site);
  const prev = idx > 0 ? data.sites[idx - 1] : null;
  const next = idx < n - 1 ? data.sites[idx + 1] : null;
  const det = site.detail;
  const rest = verdictRest(site);

  main.append(
    h(
      'nav',
      { class: 'crumbs', 'aria-label': 'sites' },
      h('a', { href: '#overview' }, '\u2190 Overview'),
      h('span', { class: 'muted' }, 'site #' + num(idx + 1) + ' of ' + num(n)),
      h('span', { class: 'prevnext' }, prev ? h('a', { href: siteHref(prev.id), rel: 'prev', title: prev.where + ' (p)' }, '\u2039 previous') : null, next ? h('a', { href: siteHref(next.id), rel: 'next', title: next.where + ' (n)' }, 'next \u203a') : null)
    ),
    h(
      'header',
      { class: 'site-head' },
      h('h1', { tabindex: '-1', id: 'site-title' }, h('span', { class: 'loc' }, breakable(site.where)), ' ', badge(site)),
      rest || site.verdict ? h('p', { class: 'verdict-text', id: 'site-verdict' }, rest || site.verdict) : null,
      h(
        'p',
        { class: 'site-id muted' },
        h('span', { class: 'loc' }, site.site),
        site.oneAliveAtATime ? h('span', { class: 'chip' }, 'one alive at a time') : null,
        site.nonEscaping ? h('span', { class: 'chip' }, 'non-escaping') : null
      )
    ),
    figures(site, n)
  );

  if (!det) {
    main.appendChild(
      h(
        'p',
        { class: 'note', id: 'no-detail' },
        'The report keeps the details (timeline, source, contexts, last uses, retainers) for the first 100 sites in rank; this one is #' + num(idx + 1) + '. ',
        'Its figures above are complete.'
      )
    );
    return {};
  }

  // Source.
  main.appendChild(
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'frame-title' },
      h('h2', { id: 'frame-title' }, 'Where they are allocated'),
      det.frame ? codeFrame(det.frame, { id: 'site-frame' }) : h('p', { class: 'empty' }, 'The source of ' + site.where + ' is not in the trace.')
    )
  );

  // The moments: the end of the run, and each snapshot.
  const snapBy = new Map();
  for (const sn of det.snapshots) if (sn && isNum(sn.time)) snapBy.set(sn.time, sn);
  const endLive = det.timeline.live.length ? det.timeline.live[det.timeline.live.length - 1] : null;
  const choices = data.snapshots.map((t, i) => {
    const sn = snapBy.get(t);
    return { key: String(t), time: t, label: 'S' + (i + 1) + ' at entry ' + num(t) + (sn ? ': ' + num(sn.live) + ' live' : ': none live'), retainers: sn ? sn.retainers : null };
  });
  // A site's snapshot at a time the run's list lacks still counts.
  for (const sn of det.snapshots) if (sn && isNum(sn.time) && !data.snapshots.includes(sn.time)) choices.push({ key: String(sn.time), time: sn.time, label: 'at entry ' + num(sn.time) + ': ' + num(sn.live) + ' live', retainers: sn.retainers });
  choices.sort((a, b) => a.time - b.time);
  choices.push({ key: 'end', time: data.end, label: 'the end of the run' + (isNum(endLive) ? ': ' + num(endLive) + ' live' : ''), retainers: det.retainers, end: true });

  const select = h('select', { id: 'moment', 'aria-describedby': 'moment-hint' });
  for (const c of choices) select.appendChild(h('option', { value: c.key }, c.label));
  const listBox = h('div', { class: 'retainers-box', 'aria-live': 'polite' });
  // The chart is also the moment's slider: the arrow keys move it.
  const chartEl = h('div', {
    class: 'chart chart-pick',
    tabindex: '0',
    role: 'slider',
    'aria-label': 'the moment of the retainers below, on the timeline of ' + site.where + ' (left and right arrows)',
    'aria-valuemin': '1',
    'aria-valuemax': String(choices.length),
  });
  let current = moments.get(site.id);
  if (!choices.some((c) => c.key === current)) current = 'end';
  let chart = null;

  const show = (key) => {
    const c = choices.find((x) => x.key === key) || choices[choices.length - 1];
    current = c.key;
    moments.set(site.id, current);
    select.value = c.key;
    chartEl.setAttribute('aria-valuenow', String(choices.indexOf(c) + 1));
    chartEl.setAttribute('aria-valuetext', c.label);
    if (chart) chart.setMoment(c.time);
    clear(listBox);
    listBox.appendChild(
      retainerList(data, c.retainers, {
        target: 'its objects',
        emptyText: c.retainers == null ? 'None of its objects was alive at this snapshot.' : c.end ? (site.maxLive > 0 ? 'None of its objects was reachable at the end of the run.' : 'It had no objects alive.') : 'No retaining path was found at this snapshot.',
      })
    );
  };
  select.addEventListener('change', () => show(select.value));
  const step = (d) => {
    const i = choices.findIndex((c) => c.key === current);
    show(choices[Math.max(0, Math.min(choices.length - 1, i + d))].key);
  };
  chartEl.addEventListener('keydown', (e) => {
    const k = e.key;
    if (k === 'ArrowLeft' || k === 'ArrowRight') step(k === 'ArrowLeft' ? -1 : 1);
    else if (k === 'Home') show(choices[0].key);
    else if (k === 'End') show('end');
    else return;
    e.preventDefault();
  });

  main.appendChild(
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'site-timeline-title' },
      h('h2', { id: 'site-timeline-title' }, 'Over the run'),
      h('p', { class: 'hint', id: 'moment-hint' }, data.snapshots.length ? 'Click the chart near a snapshot (S1\u2026S' + data.snapshots.length + ') or at the end, or use the arrow keys on it, to see what retained the objects then.' : 'No snapshot was taken during the run: the retainers are those at its end.'),
      chartEl
    )
  );
  main.appendChild(
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'retainers-title' },
      h('div', { class: 'panel-head' }, h('h2', { id: 'retainers-title' }, 'What retains them'), h('label', { class: 'moment' }, 'at ', select)),
      listBox
    )
  );
  main.appendChild(h('div', { class: 'two' }, contextsBlock(site), lastUsesBlock(site)));

  chart = timelineChart(chartEl, {
    t: data.timeline.t,
    live: det.timeline.live,
    stale: det.timeline.stale,
    markers: data.snapshots,
    moment: null,
    height: 220,
    onPick: (x) => {
      let best = choices[choices.length - 1];
      for (const c of choices) if (Math.abs(c.time - x) < Math.abs(best.time - x)) best = c;
      show(best.key);
    },
  });
  show(current);

  return {
    destroy: () => chart && chart.destroy(),
    onKey(e) {
      if (e.key === 'n' && next) return ctx.nav(siteHref(next.id)), true;
      if (e.key === 'p' && prev) return ctx.nav(siteHref(prev.id)), true;
      if (e.key === '[' || e.key === ']') return step(e.key === '[' ? -1 : 1), true;
      return false;
    },
  };
}
