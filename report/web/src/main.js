// memtrace report: renders the document in #memtrace-data into #app.
// Routes are the location's hash (#overview, #site/ID, #dom, #baseline),
// so links are links and the browser's back button works.
import 'uplot/dist/uPlot.min.css';
import './report.css';
import { h, clear, num, inEditable } from './util.js';
import { normalize } from './model.js';
import { initTheme, themeButton, toggleScheme } from './theme.js';
import { overview } from './overview.js';
import { sitePage } from './site.js';
import { domPage, baselinePage } from './pages.js';
import { helpDialog } from './help.js';

function parseRoute(hash) {
  const p = decodeURIComponent(String(hash || '').replace(/^#\/?/, ''));
  if (p === '' || p === 'overview') return { name: 'overview', path: 'overview' };
  const m = /^site\/(\d+)$/.exec(p);
  if (m) return { name: 'site', id: +m[1], path: 'site/' + +m[1] };
  if (p === 'dom') return { name: 'dom', path: 'dom' };
  if (p === 'baseline') return { name: 'baseline', path: 'baseline' };
  return { name: 'unknown', path: p };
}

function fail(app, message) {
  clear(app).appendChild(h('div', { class: 'fatal', role: 'alert' }, h('h1', null, 'This report cannot be shown'), h('p', null, message)));
  document.documentElement.dataset.error = message;
  document.documentElement.dataset.ready = '1';
}

function start() {
  const app = document.getElementById('app');
  if (!app) return;
  initTheme();
  let data;
  try {
    const el = document.getElementById('memtrace-data');
    data = normalize(JSON.parse(el ? el.textContent : 'null'));
  } catch (e) {
    fail(app, 'Its data does not read as JSON: ' + (e && e.message ? e.message : String(e)) + '.');
    return;
  }

  const title = data.title || data.run.what || '';
  const navLinks = {};
  const navItem = (key, href, label) => (navLinks[key] = h('a', { href, class: 'nav-link' }, label));
  const nav = h('nav', { class: 'nav', 'aria-label': 'pages' }, navItem('overview', '#overview', 'Overview'));
  if (data.detached.length) {
    const nodes = data.detached.reduce((a, d) => a + (d && typeof d.nodes === 'number' ? d.nodes : 0), 0);
    nav.appendChild(navItem('dom', '#dom', 'Detached DOM (' + num(nodes) + ')'));
    navLinks.dom.title = num(nodes) + (nodes === 1 ? ' node' : ' nodes') + ' off the document but reachable at the end, made at ' + num(data.detached.length) + (data.detached.length === 1 ? ' site' : ' sites');
  } else nav.appendChild(h('span', { class: 'nav-none', id: 'no-dom' }, 'no detached DOM nodes'));
  if (data.baseline) nav.appendChild(navItem('baseline', '#baseline', 'Baseline'));
  const help = helpDialog();
  const helpBtn = h('button', { type: 'button', class: 'help-button', 'aria-label': 'Keys (?)', title: 'Keys (?)', onclick: () => help.open() }, '?');
  const bar = h(
    'header',
    { class: 'bar' },
    h('div', { class: 'bar-in' }, h('a', { class: 'brand', href: '#overview', title: 'memtrace report: ' + title }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, '\u25C9'), 'memtrace', h('span', { class: 'brand-title' }, title)), nav, h('div', { class: 'bar-tools' }, themeButton(), helpBtn))
  );
  const main = h('main', { id: 'main', tabindex: '-1' });
  const warn = data.version !== 1 ? h('p', { class: 'note warn-note', role: 'note' }, 'This report\u2019s data is of version ' + String(data.version) + '; this page reads version 1, and some of it may be missing.') : null;
  clear(app).append(h('button', { type: 'button', class: 'skip', onclick: () => main.focus() }, 'Skip to the content'), bar, h('div', { class: 'page' }, warn, main), help.el);

  // The bar's height, for what sticks under it.
  const barHeight = () => document.documentElement.style.setProperty('--bar-h', (getComputedStyle(bar).position === 'sticky' ? bar.offsetHeight : 0) + 'px');
  if (typeof ResizeObserver === 'function') new ResizeObserver(barHeight).observe(bar);
  barHeight();

  let view = {};
  let route = null;
  let overviewScroll = 0;
  let filterNext = false;

  const go = (href) => {
    if (location.hash === href) render();
    else location.hash = href;
  };
  const ctx = { nav: go };

  function render() {
    const next = parseRoute(location.hash);
    const from = route;
    if (from && from.name === 'overview') overviewScroll = window.scrollY;
    if (view.destroy) {
      try {
        view.destroy();
      } catch (e) {
        // A view's charts are gone with it either way.
      }
    }
    clear(main);
    route = next;
    for (const k of Object.keys(navLinks)) {
      if (k === next.name) navLinks[k].setAttribute('aria-current', 'page');
      else navLinks[k].removeAttribute('aria-current');
    }
    let sub = '';
    switch (next.name) {
      case 'overview':
        view = overview(main, data, ctx);
        break;
      case 'site': {
        view = sitePage(main, data, next.id, ctx);
        const s = data.byId.get(next.id);
        sub = s ? s.where : 'site ' + next.id;
        break;
      }
      case 'dom':
        view = domPage(main, data, ctx);
        sub = 'detached DOM';
        break;
      case 'baseline':
        view = baselinePage(main, data, ctx);
        sub = 'baseline';
        break;
      default:
        main.append(h('h1', { tabindex: '-1' }, 'No such page'), h('p', null, 'Nothing here is called \u201c' + next.path + '\u201d. ', h('a', { href: '#overview' }, 'Back to the overview')));
        view = {};
        sub = 'not found';
    }
    document.title = 'memtrace report: ' + title + (sub ? ' \u2014 ' + sub : '');
    const root = document.documentElement;
    root.dataset.route = next.path;
    // Focus: back on the overview, the row of the site just seen; else the
    // page's heading, for screen readers and for Tab to start there.
    if (next.name === 'overview' && from && from.name !== 'overview') {
      window.scrollTo(0, overviewScroll);
      if (!(view.restore && view.restore())) window.scrollTo(0, overviewScroll);
    } else {
      window.scrollTo(0, 0);
      if (from) {
        const h1 = main.querySelector('h1');
        if (h1) h1.focus({ preventScroll: true });
      }
    }
    if (filterNext && view.focusFilter) view.focusFilter();
    filterNext = false;
    root.dataset.ready = '1';
  }

  // Keys. Inside text fields only Escape and the arrows from the filter
  // are ours; modifiers are the browser's.
  let pendingG = 0;
  const back = () => {
    if (route && route.name !== 'overview') go('#overview');
  };
  const inTable = (table) => table.contains(document.activeElement);
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    if (help.isOpen()) return;
    const t = e.target;
    const editable = inEditable(t);
    if (editable) {
      if (e.key === 'Escape' && t.tagName === 'INPUT') {
        t.blur();
        e.preventDefault();
      }
      return;
    }
    const k = e.key;
    if (pendingG && Date.now() - pendingG < 1500) {
      pendingG = 0;
      const dest = { o: '#overview', d: '#dom', b: '#baseline' }[k];
      if (dest) {
        e.preventDefault();
        go(dest);
        return;
      }
    }
    pendingG = 0;
    // Enter and Space on a link, a button or the chart are theirs.
    if ((k === 'Enter' || k === ' ') && t && t.closest && t.closest('a, button, summary, [tabindex]:not(main)')) return;
    if (view.onKey && view.onKey(e, inTable)) {
      e.preventDefault();
      return;
    }
    switch (k) {
      case '/':
        e.preventDefault();
        if (route.name !== 'overview') {
          filterNext = true;
          go('#overview');
        } else if (view.focusFilter) view.focusFilter();
        return;
      case '?':
        e.preventDefault();
        help.open();
        return;
      case 'Escape':
        if (route.name !== 'overview') {
          e.preventDefault();
          back();
        }
        return;
      case 'Backspace':
        e.preventDefault();
        back();
        return;
      case 'g':
        pendingG = Date.now();
        return;
      case 't':
        toggleScheme();
        return;
    }
  });

  window.addEventListener('hashchange', render);
  render();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
