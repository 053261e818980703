// The sites table: every site, ranked; sortable by any column, filtered by
// words and by the leaking verdict, a row cursor moved with j/k or arrows.
import { h, num, plain, clear, plural, breakable } from './util.js';
import { badge, verdictKind, verdictLabel, verdictRank, siteHref } from './model.js';
import { spark } from './spark.js';

// The first rows shown; the rest after "show all".
export const PAGE_ROWS = 200;
const CHUNK_ROWS = 500;

// The table's state outlives its page: back on the overview, the reader
// finds the table as they left it.
export const tableState = { sort: 'rank', dir: 1, q: '', leakingOnly: false, showAll: false, cursor: null };

const COLS = [
  { key: 'rank', label: '#', title: 'rank: leaking first, then by stale, then by allocated', num: true, dir: 1 },
  { key: 'where', label: 'Site', title: 'where the objects are allocated', dir: 1 },
  { key: 'verdict', label: 'Verdict', title: 'the verdict, the most worrying first', dir: 1 },
  { key: 'maxStale', label: 'Stale', title: 'the most objects reachable after their last use at once', num: true, dir: -1 },
  { key: 'maxLive', label: 'Live', title: 'the most objects alive at once', num: true, dir: -1 },
  { key: 'allocated', label: 'Allocated', title: 'objects allocated', num: true, dir: -1 },
  { key: 'unused', label: 'Unused', title: 'objects never used after their creation', num: true, dir: -1 },
  { key: 'spark', label: 'Live / stale', title: 'live (area) and stale (line) objects over the run', sortable: false },
];

function sortValue(site, key, rank) {
  switch (key) {
    case 'rank':
      return rank.get(site);
    case 'where':
      return site.where.toLowerCase();
    case 'verdict':
      return verdictRank(site);
    default:
      return site[key];
  }
}

export function sitesTable(data, nav) {
  const st = tableState;
  const sites = data.sites;
  const rank = new Map();
  const hay = new Map();
  sites.forEach((site, i) => {
    rank.set(site, i);
    hay.set(site, (site.where + '\n' + site.site + '\n' + site.verdict + '\n' + verdictLabel(site) + '\n' + verdictKind(site)).toLowerCase());
  });

  const filter = h('input', {
    type: 'search',
    id: 'site-filter',
    class: 'filter-input',
    placeholder: 'Filter by site, file or verdict',
    'aria-label': 'Filter sites by site, file or verdict (press / to get here)',
    autocomplete: 'off',
    spellcheck: 'false',
    value: st.q,
  });
  filter.value = st.q;
  const leakOnly = h('input', { type: 'checkbox', id: 'leaking-only' });
  leakOnly.checked = st.leakingOnly;
  const count = h('span', { class: 'count', role: 'status', 'aria-live': 'polite' });
  const tools = h(
    'div',
    { class: 'table-tools' },
    h('span', { class: 'filter' }, filter, h('kbd', { class: 'filter-key', 'aria-hidden': 'true', title: 'press / to filter' }, '/')),
    h('label', { class: 'check' }, leakOnly, ' leaking only'),
    count
  );

  const heads = new Map();
  const headRow = h('tr');
  for (const c of COLS) {
    const th = h('th', { scope: 'col', class: [c.num ? 'num' : '', 'col-' + c.key, c.sortable === false ? 'plain' : ''], title: c.title });
    if (c.sortable === false) th.append(c.label);
    else {
      const ind = h('span', { class: 'sort-ind', 'aria-hidden': 'true' });
      const b = h('button', { type: 'button', class: 'sort', dataset: { sort: c.key } }, c.label, ind);
      b.addEventListener('click', () => {
        if (st.sort === c.key) st.dir = -st.dir;
        else {
          st.sort = c.key;
          st.dir = c.dir;
        }
        paint();
      });
      th.appendChild(b);
      heads.set(c.key, { th, ind });
    }
    headRow.appendChild(th);
  }
  const tbody = h('tbody');
  const table = h(
    'table',
    { class: 'sites', id: 'sites-table' },
    h('caption', { class: 'sr-only' }, 'Allocation sites; column headers sort; j and k move the highlighted row, Enter opens it'),
    h('thead', null, headRow),
    tbody
  );
  const more = h('div', { class: 'table-more' });
  const wrap = h('div', { class: 'table-wrap' }, table);
  const el = h('div', { class: 'sites-block' }, tools, wrap, more);

  let shown = [];
  let gen = 0;
  // Rows are made once: sorting and filtering move them.
  const made = new Map();
  const rowOf = (site) => {
    let tr = made.get(site);
    if (!tr) made.set(site, (tr = row(site)));
    else tr.classList.toggle('current', st.cursor === site.id);
    return tr;
  };

  function visible() {
    const words = st.q.toLowerCase().split(/\s+/).filter(Boolean);
    let out = sites;
    if (st.leakingOnly || words.length) {
      out = sites.filter((site) => {
        if (st.leakingOnly && !site.leaking) return false;
        const text = hay.get(site);
        return words.every((w) => text.includes(w));
      });
    } else out = sites.slice();
    const key = st.sort;
    const dir = st.dir;
    out.sort((a, b) => {
      const x = sortValue(a, key, rank);
      const y = sortValue(b, key, rank);
      if (x < y) return -dir;
      if (x > y) return dir;
      return rank.get(a) - rank.get(b);
    });
    return out;
  }

  function row(site) {
    const kind = verdictKind(site);
    const tr = h('tr', { class: ['row', kind === 'leaking' ? 'is-leaking' : '', st.cursor === site.id ? 'current' : ''], dataset: { siteId: site.id } });
    const numCell = (field, v, extra) => h('td', { class: ['num', extra], dataset: { field, value: plain(v) } }, num(v));
    tr.append(
      numCell('rank', rank.get(site) + 1, 'rank'),
      h('td', { class: 'where', dataset: { field: 'where', value: site.where } }, h('a', { href: siteHref(site.id), class: 'loc', title: site.site }, breakable(site.where))),
      h(
        'td',
        { class: 'verdict', dataset: { field: 'verdict', value: site.verdict, kind } },
        badge(site),
        site.oneAliveAtATime ? h('span', { class: 'chip', title: 'never more than one of its objects alive' }, 'one at a time') : null,
        site.nonEscaping ? h('span', { class: 'chip', title: 'every object became unreachable while the call that made it ran' }, 'non-escaping') : null
      ),
      numCell('maxStale', site.maxStale, site.leaking && site.maxStale > 0 ? 'has-stale' : ''),
      numCell('maxLive', site.maxLive),
      numCell('allocated', site.allocated),
      numCell('unused', site.unused),
      h('td', { class: 'spark-cell' }, site.spark ? spark(site.spark.live, site.spark.stale) : null)
    );
    return tr;
  }

  function paint() {
    for (const [key, { th, ind }] of heads) {
      const on = key === st.sort;
      th.setAttribute('aria-sort', on ? (st.dir > 0 ? 'ascending' : 'descending') : 'none');
      ind.textContent = on ? (st.dir > 0 ? '\u25B2' : '\u25BC') : '';
      th.classList.toggle('sorted', on);
    }
    const all = visible();
    const n = st.showAll ? all.length : Math.min(all.length, PAGE_ROWS);
    shown = all.slice(0, n);
    // The first page of rows now, the rest frame by frame: with thousands
    // of rows the page answers while they come.
    const my = ++gen;
    clear(tbody);
    const put = (from, to) => {
      const frag = document.createDocumentFragment();
      for (let i = from; i < to; i++) frag.appendChild(rowOf(shown[i]));
      tbody.appendChild(frag);
    };
    const first = Math.min(n, PAGE_ROWS);
    put(0, first);
    if (n > first) {
      table.dataset.pending = '1';
      let i = first;
      const step = () => {
        if (my !== gen) return;
        const to = Math.min(n, i + CHUNK_ROWS);
        put(i, to);
        i = to;
        if (i < n) window.requestAnimationFrame(step);
        else delete table.dataset.pending;
      };
      window.requestAnimationFrame(step);
    } else delete table.dataset.pending;
    if (!sites.length) tbody.appendChild(h('tr', { class: 'empty-row' }, h('td', { colspan: COLS.length }, 'No allocation sites in this trace.')));
    else if (!all.length) tbody.appendChild(h('tr', { class: 'empty-row' }, h('td', { colspan: COLS.length }, 'No site matches the filter.')));
    count.textContent = (all.length === sites.length ? plural(sites.length, 'site') : num(all.length) + ' of ' + plural(sites.length, 'site')) + (n < all.length ? ', the first ' + num(n) + ' shown' : '');
    clear(more);
    if (n < all.length) {
      more.appendChild(
        h(
          'button',
          {
            type: 'button',
            id: 'show-all',
            onclick: () => {
              st.showAll = true;
              paint();
            },
          },
          'Show all ' + num(all.length) + ' sites'
        )
      );
    }
  }

  // The "/" that brought the focus here is not typed into the field (a
  // browser whose key events come apart, as some automation does, would
  // otherwise type it after its keydown was taken).
  let swallow = 0;
  filter.addEventListener('beforeinput', (e) => {
    if (swallow && e.data === '/' && Date.now() - swallow < 500) e.preventDefault();
    swallow = 0;
  });

  let timer = 0;
  filter.addEventListener('input', () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(
      () => {
        st.q = filter.value;
        st.showAll = false;
        paint();
      },
      sites.length > 2000 ? 120 : 0
    );
  });
  filter.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && filter.value) {
      // The first Escape clears the filter, the next leaves the field.
      e.preventDefault();
      e.stopPropagation();
      filter.value = '';
      st.q = '';
      st.showAll = false;
      paint();
      return;
    }
    if (e.key === 'ArrowDown' || (e.key === 'Enter' && shown.length)) {
      e.preventDefault();
      if (e.key === 'Enter' && shown.length && (st.q || st.leakingOnly)) setCursor(0, true);
      else move(1);
    }
  });
  leakOnly.addEventListener('change', () => {
    st.leakingOnly = leakOnly.checked;
    st.showAll = false;
    paint();
  });
  tbody.addEventListener('click', (e) => {
    if (e.target.closest('a, button, input')) return;
    const tr = e.target.closest('tr[data-site-id]');
    if (tr && !String(window.getSelection ? window.getSelection() : '')) nav(siteHref(tr.dataset.siteId));
  });
  tbody.addEventListener('focusin', (e) => {
    const tr = e.target.closest('tr[data-site-id]');
    if (tr) mark(tr);
  });

  function rows() {
    return Array.from(tbody.querySelectorAll('tr[data-site-id]'));
  }

  function mark(tr) {
    for (const r of tbody.querySelectorAll('tr.current')) if (r !== tr) r.classList.remove('current');
    tr.classList.add('current');
    st.cursor = +tr.dataset.siteId;
  }

  function setCursor(i, focus) {
    const rs = rows();
    if (!rs.length) return;
    i = Math.max(0, Math.min(rs.length - 1, i));
    const tr = rs[i];
    mark(tr);
    if (focus !== false) {
      const a = tr.querySelector('a');
      if (a) a.focus({ preventScroll: true });
    }
    tr.scrollIntoView({ block: 'nearest' });
  }

  // move moves the cursor delta rows (from before the first when none).
  function move(delta) {
    const rs = rows();
    const i = rs.findIndex((r) => r.classList.contains('current'));
    setCursor(i < 0 ? (delta > 0 ? 0 : rs.length - 1) : i + delta);
  }

  function open() {
    const tr = tbody.querySelector('tr.current');
    if (!tr) return false;
    nav(siteHref(tr.dataset.siteId));
    return true;
  }

  paint();
  return {
    el,
    filter,
    // focusFilter focuses the filter for the "/" key.
    focusFilter() {
      swallow = Date.now();
      filter.focus();
      filter.select();
    },
    move,
    open,
    first: () => setCursor(0),
    last: () => setCursor(rows().length - 1),
    // focusCurrent puts the focus back on the cursor's row, as when coming
    // back from its site's page.
    focusCurrent() {
      const tr = st.cursor == null ? null : tbody.querySelector('tr[data-site-id="' + st.cursor + '"]');
      if (!tr) return false;
      const a = tr.querySelector('a');
      if (a) a.focus({ preventScroll: true });
      return true;
    },
    contains: (node) => table.contains(node),
  };
}
