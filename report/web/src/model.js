// The data document and what the views derive from it.
import { arr, h, isNum, breakable } from './util.js';

// Kinds of verdicts, the most worrying first (the verdict column sorts so).
const KINDS = ['leaking', 'not-growing', 'released', 'never-stale', 'other'];

// verdictKind classifies a site: its verdict's words before the colon when
// they are one of ours, else from its figures as memtrace words them.
const kinds = new WeakMap();

export function verdictKind(site) {
  let k = kinds.get(site);
  if (k === undefined) kinds.set(site, (k = kindOf(site)));
  return k;
}

function kindOf(site) {
  if (site.leaking) return 'leaking';
  const head = String(site.verdict || '').split(':')[0].trim().toLowerCase().replace(/\s+/g, '-');
  if (KINDS.includes(head)) return head;
  if (!isNum(site.maxStale)) return 'other';
  if (site.maxStale === 0) return 'never-stale';
  if (site.maxStale * 10 <= site.allocated) return 'released';
  return 'not-growing';
}

const LABELS = {
  leaking: 'LEAKING',
  'not-growing': 'not growing',
  released: 'released',
  'never-stale': 'never stale',
  other: 'see verdict',
};

export function verdictRank(site) {
  return KINDS.indexOf(verdictKind(site));
}

export function verdictLabel(site) {
  return LABELS[verdictKind(site)];
}

export function badge(site) {
  const kind = verdictKind(site);
  return h('span', { class: 'badge badge-' + kind, title: site.verdict || null }, LABELS[kind]);
}

// verdictRest is the verdict's words after its kind ("its stale objects
// kept growing ..."), for next to the badge.
export function verdictRest(site) {
  return separated(rest(site));
}

// separated writes the long counts of a verdict's words with thousands
// separators ("to 1200 at" reads "to 1,200 at"); locations (a:1:2) and
// decimals stay as they are.
function separated(text) {
  return text.replace(/(^|[^\w.:,])(\d{4,})(?![\w.:,]\d|[\w:])/g, (m, pre, d) => pre + Number(d).toLocaleString('en-US'));
}

function rest(site) {
  const v = String(site.verdict || '');
  const i = v.indexOf(':');
  if (i > 0 && KINDS.includes(v.slice(0, i).trim().toLowerCase().replace(/\s+/g, '-'))) return v.slice(i + 1).trim();
  return verdictKind(site) === 'other' || !v.toLowerCase().startsWith(LABELS[verdictKind(site)].toLowerCase()) ? v : '';
}

export function siteHref(id) {
  return '#site/' + id;
}

// normalize fills in what a document may leave out, so that the views can
// take arrays and numbers for granted.
export function normalize(d) {
  d = d && typeof d === 'object' ? d : {};
  const z = (o) => (o && typeof o === 'object' ? o : {});
  d.run = z(d.run);
  d.totals = z(d.totals);
  d.timeline = z(d.timeline);
  d.timeline.t = arr(d.timeline.t);
  d.timeline.live = arr(d.timeline.live);
  d.timeline.stale = arr(d.timeline.stale);
  d.snapshots = arr(d.snapshots).filter(isNum);
  // A retainer names its path by index in d.paths (written once however
  // many moments and sites it holds); the views take text and path.
  const paths = arr(d.paths);
  const files = arr(d.files);
  const expand = (rs) =>
    arr(rs).map((r) => {
      const e = r && typeof r === 'object' && isNum(r.p) ? paths[r.p] : null;
      return e && typeof e === 'object' && r.path === undefined ? { ...r, text: String(e.text || ''), path: arr(e.path) } : r;
    });
  d.sites = arr(d.sites).filter((x) => x && typeof x === 'object');
  d.sites.forEach((site, i) => {
    if (!isNum(site.id)) site.id = i;
    // A site's place may come as a file's index in d.files, its line and column.
    if (!site.where && isNum(site.f) && typeof files[site.f] === 'string') site.where = files[site.f] + ':' + site.l + ':' + site.c;
    site.where = String(site.where || site.site || 'unknown');
    site.site = String(site.site || site.where);
    site.verdict = String(site.verdict || '');
    for (const k of ['allocated', 'maxLive', 'maxStale', 'unused']) if (!isNum(site[k])) site[k] = 0;
    if (site.detail && typeof site.detail === 'object') {
      const det = site.detail;
      det.timeline = z(det.timeline);
      det.timeline.live = arr(det.timeline.live);
      det.timeline.stale = arr(det.timeline.stale);
      det.contexts = arr(det.contexts);
      det.lastUses = arr(det.lastUses);
      det.retainers = expand(det.retainers);
      det.snapshots = arr(det.snapshots).map((sn) => (sn && typeof sn === 'object' ? { ...sn, retainers: expand(sn.retainers) } : sn));
    } else site.detail = null;
  });
  d.detached = arr(d.detached).map((g) => (g && typeof g === 'object' ? { ...g, retainers: expand(g.retainers) } : g));
  d.end = isNum(d.end) ? d.end : 0;
  if (d.baseline && typeof d.baseline === 'object') {
    d.baseline.totals = z(d.baseline.totals);
    d.baseline.grew = arr(d.baseline.grew);
  } else d.baseline = null;
  const byId = new Map();
  for (const site of d.sites) byId.set(site.id, site);
  d.byId = byId;
  return d;
}

// siteLink links to a site's page, named by where it is.
export function siteLink(data, id, fallback) {
  const site = data.byId.get(id);
  if (!site) return h('span', { class: 'loc' }, fallback || (isNum(id) ? 'site ' + id : 'unknown site'));
  return h('a', { class: 'loc', href: siteHref(id), title: site.site }, breakable(site.where));
}
