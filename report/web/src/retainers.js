// What retains a site's objects: shapes of retaining paths, each in words
// and as the chain of steps from a root to the objects.
import { h, num, arr, isNum, codeText } from './util.js';
import { siteHref } from './model.js';

// entryKey reads a collection entry's key as the trace names it ("s:" and
// the string, "n:" and the number, "o" and an object's id ...).
function entryKey(k) {
  const m = /^([snybluo]):?(.*)$/s.exec(k);
  if (!m) return k;
  switch (m[1]) {
    case 's':
      return JSON.stringify(m[2]);
    case 'b':
      return m[2] + 'n';
    case 'o':
      return 'an object';
    default:
      return m[2];
  }
}

// edgeText is an edge as a step of an expression, or a word for what it
// is when it has none (a listener, a timer), and its title: what it is.
function edgeText(st) {
  const e = String(st.edge == null ? '' : st.edge);
  if (st.context) return [e.replace(/@\d+$/, ''), 'a variable'];
  if (/^\d+$/.test(e)) return ['[' + e + ']', 'an element'];
  const m = /^~([^~]+)~(.*)$/s.exec(e);
  if (m) {
    const key = m[2] ? entryKey(m[2]) : '';
    const eg = key ? ', for example the one of ' + key : '';
    switch (m[1]) {
      case 'map':
        return ['.get(\u2026)', 'the value of a Map entry' + eg];
      case 'mapkey':
        return ['(a key)', 'the key of a Map entry' + eg];
      case 'set':
        return ['(a member)', 'a member of a Set' + (key ? ', for example ' + key : '')];
      case 'weakmap':
        return ['(a WeakMap value)', 'the value a WeakMap keeps for this object'];
      case 'event':
        return ['(a listener)', 'a listener of an event'];
      case 'dom-child':
        return ['(a child)', 'a child node'];
      default:
        return ['(' + m[1].replace(/-/g, ' ') + ')', e];
    }
  }
  if (e === '_CONTEXT_') return ['(its closure)', 'the variables the function closes over'];
  if (/^[A-Za-z_$][\w$]*$/.test(e)) return ['.' + e, 'a property'];
  return ['[' + JSON.stringify(e) + ']', 'a property'];
}

function holder(data, st) {
  const text = String(st.holder == null ? '?' : st.holder);
  const site = isNum(st.site) ? data.byId.get(st.site) : null;
  const cls = st.context ? 'holder holder-context' : text === 'GLOBAL' ? 'holder holder-root' : 'holder';
  if (site) return h('a', { class: cls, href: siteHref(site.id), title: 'objects made at ' + site.where + ' (site #' + (site.id + 1) + ')' }, text === 'GLOBAL' ? 'global' : text);
  return h('span', { class: cls, title: st.context ? 'a function\u2019s variables' : null }, text === 'GLOBAL' ? 'global' : text);
}

// pathChain renders a retaining path, root first, ending at the objects.
export function pathChain(data, path, target) {
  const ol = h('ol', { class: 'path', 'aria-label': 'retaining path, from a root' });
  arr(path).forEach((st) => {
    if (!st || typeof st !== 'object') return;
    const [text, what] = edgeText(st);
    ol.appendChild(
      h('li', { class: 'step' }, holder(data, st), h('span', { class: 'edge', title: what + ' (' + String(st.edge == null ? '' : st.edge) + ')' }, h('code', null, text), h('span', { class: 'arrow', 'aria-hidden': 'true' }, '\u2192')))
    );
  });
  ol.appendChild(h('li', { class: 'step step-target' }, h('span', { class: 'holder holder-target' }, target || 'the objects')));
  return ol;
}

// retainerList renders shapes (most objects first) or says there are none.
export function retainerList(data, shapes, o = {}) {
  shapes = arr(shapes).filter((r) => r && typeof r === 'object');
  if (!shapes.length) return h('p', { class: 'empty' }, o.emptyText || 'Nothing retains them.');
  const list = h('div', { class: 'retainers' });
  shapes.forEach((r, i) => {
    const objects = isNum(r.objects) ? r.objects : 0;
    const sampled = isNum(r.sampled) && r.sampled > 0 ? r.sampled : 0;
    const pct = sampled ? Math.round((objects / sampled) * 100) : null;
    const count = sampled ? num(objects) + ' of ' + num(sampled) + ' sampled ' + (sampled === 1 ? 'object' : 'objects') + (pct != null ? ' (' + pct + '%)' : '') : num(objects) + (objects === 1 ? ' object' : ' objects');
    const fill = h('span');
    fill.style.width = (pct == null ? 100 : Math.max(2, pct)) + '%';
    list.appendChild(
      h(
        'section',
        { class: 'retainer', dataset: { objects: String(objects), sampled: String(sampled) }, 'aria-label': 'retainer ' + (i + 1) },
        h('p', { class: 'retainer-text' }, codeText(r.text || 'held by a path of ' + arr(r.path).length + ' steps')),
        h('div', { class: 'retainer-count' }, h('span', { class: 'meter', 'aria-hidden': 'true' }, fill), count),
        pathChain(data, r.path, o.target)
      )
    );
  });
  return list;
}
