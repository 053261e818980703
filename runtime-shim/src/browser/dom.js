// The browser host's model of the DOM (spec §4, docs/browser.md): every
// node the trace meets is a CREATE_DOM_NODE at its allocation site, and the
// tree's parent-child edges are ADD_DOM_CHILD and REMOVE_DOM_CHILD, kept
// as the page changes the tree, so that the engine sees what holds a node
// (its parent, up to the document's root, DOM_ROOT) and when it lets go.
//
// The model keeps, per node it has linked, the parent it wrote the edge
// from (a WeakMap: nothing on the node the page could see), and brings an
// edge up to date by comparing it with the node's parentNode (sync): what
// changed the tree does not matter, only that the model looks. It looks
//   - after each DOM method the page's instrumented code calls
//     (appendChild, insertBefore, append, replaceWith, insertAdjacentHTML,
//     cloneNode, importNode, DOMParser, attachShadow, ...), at once, with
//     the call's site for the nodes it made;
//   - after writes of innerHTML, outerHTML, textContent, innerText and
//     outerText, with the write's site for the parsed nodes;
//   - when one MutationObserver per document (and per shadow root)
//     reports what other code changed (the parser, uninstrumented code),
//     with site -1 ("unknown");
//   - once, at DOMContentLoaded: the initial document, site -2 ("initial
//     DOM"), as MemInsight's traversal.
// Nodes a call or a write makes get their ids at once (their site is
// known then); a subtree the model links for the first time is walked,
// without recursion. Writes of on* handler properties of event targets
// are PUTFIELDs of the target (it holds the handler).

import { apply, getOwnPropertyDescriptor, hasOwn, isArray, SafeMap, SafeWeakMap } from '../natives.js';
import { K_HOST } from '../consts.js';

// The kinds of the DOM's natives (core.js calls hostModel.before/after).
const D_MOVE = K_HOST + 1; // appendChild, insertBefore, replaceChild, removeChild
const D_PARENT_ADD = K_HOST + 2; // append, prepend
const D_REPLACE_CHILDREN = K_HOST + 3; // replaceChildren, setHTMLUnsafe
const D_SIBLING_ADD = K_HOST + 4; // before, after
const D_REPLACE_WITH = K_HOST + 5; // replaceWith, remove
const D_ADJACENT = K_HOST + 6; // insertAdjacentHTML, insertAdjacentText
const D_ADJACENT_EL = K_HOST + 7; // insertAdjacentElement
const D_COPY = K_HOST + 8; // cloneNode, importNode, DOMParser's parseFromString, ...
const D_ADOPT = K_HOST + 9; // adoptNode
const D_SHADOW = K_HOST + 10; // attachShadow
const D_WORKER = K_HOST + 11; // new Worker: the page's workers, told when the page goes away
const D_SET_ATTR = K_HOST + 12; // setAttribute: an event handler's code set at run time
const D_RAF = K_HOST + 13; // requestAnimationFrame: the browser holds the callback until it runs
const D_CANCEL_RAF = K_HOST + 14; // cancelAnimationFrame
const D_OBSERVER = K_HOST + 15; // new ResizeObserver, IntersectionObserver, MutationObserver: it holds its callback
const D_OBSERVE = K_HOST + 16; // observe(target): the target holds the observer
const D_UNOBSERVE = K_HOST + 17; // unobserve(target)
const D_WRITE = K_HOST + 18; // document.write, writeln: the HTML written, rewritten by the server
const D_CHANNEL = K_HOST + 19; // new MessageChannel: its ports, each holding the other while entangled
const D_PORT_CLOSE = K_HOST + 20; // MessagePort's close: the ports let each other go
const D_XHR_SEND = K_HOST + 21; // XMLHttpRequest's send: the browser holds the request until it ends
const D_FETCH = K_HOST + 22; // fetch: the browser holds the promise until it settles

const hasInstance = Function.prototype[Symbol.hasInstance];
const toLower = String.prototype.toLowerCase;
const strIndexOf = String.prototype.indexOf;
const charCodeAt = String.prototype.charCodeAt;
const isObj = (v) => (typeof v === 'object' && v !== null) || typeof v === 'function';

function desc(C, name) {
  try {
    return typeof C === 'function' && isObj(C.prototype) ? getOwnPropertyDescriptor(C.prototype, name) : undefined;
  } catch {
    return undefined;
  }
}
function getter(C, name) {
  const d = desc(C, name);
  return d !== undefined && typeof d.get === 'function' ? d.get : undefined;
}
function method(C, name) {
  const d = desc(C, name);
  return d !== undefined && typeof d.value === 'function' ? d.value : undefined;
}

// hasHandler reports whether HTML text s may hold an event handler
// attribute: "on", after a space, a quote or a slash, then letters and
// "=" (a cheap look before asking the server).
function hasHandler(s) {
  for (let i = apply(strIndexOf, s, ['on']); i > 0; i = apply(strIndexOf, s, ['on', i + 2])) {
    const b = apply(charCodeAt, s, [i - 1]);
    if (b !== 32 && b !== 9 && b !== 10 && b !== 13 && b !== 12 && b !== 47 && b !== 34 && b !== 39) continue;
    let j = i + 2;
    while (j < s.length) {
      const c = apply(charCodeAt, s, [j]) | 32;
      if (c < 97 || c > 122) break;
      j++;
    }
    if (j > i + 2 && j < s.length && apply(charCodeAt, s, [j]) === 61) return true;
  }
  return false;
}

// domModel returns the DOM's model for the page's global G ({isNode,
// marks, model, start(dom), flush()}), or undefined where there is no DOM
// (a worker). inst: the host's instrument service (instrument.js), for
// the code a page sets at run time (handler attributes, script elements
// inserted with their text), or undefined.
export function domModel(G, inst) {
  const Node = G.Node;
  const doc = G.document;
  if (typeof Node !== 'function' || !isObj(doc)) return undefined;
  const parentOf = getter(Node, 'parentNode');
  const firstOf = getter(Node, 'firstChild');
  const nextOf = getter(Node, 'nextSibling');
  const typeOf = getter(Node, 'nodeType');
  const connectedOf = getter(Node, 'isConnected');
  if (parentOf === undefined || firstOf === undefined || nextOf === undefined || typeOf === undefined) return undefined;
  const Template = G.HTMLTemplateElement;
  const contentOf = getter(Template, 'content');
  const rootOf = getter(G.Document, 'documentElement');
  const readyOf = getter(G.Document, 'readyState');
  const ET = G.EventTarget;
  const addListener = method(ET, 'addEventListener');
  const MO = G.MutationObserver;
  const observe = method(MO, 'observe');
  const takeRecords = method(MO, 'takeRecords');
  const recAdded = getter(G.MutationRecord, 'addedNodes');
  const recRemoved = getter(G.MutationRecord, 'removedNodes');
  const listLength = getter(G.NodeList, 'length');
  const listItem = method(G.NodeList, 'item');

  const isNode = (o) => apply(hasInstance, Node, [o]);
  const Script = G.HTMLScriptElement;
  const isScript = typeof Script === 'function' ? (o) => apply(hasInstance, Script, [o]) : () => false;
  const scriptText = desc(Script, 'text');
  const scriptType = getter(Script, 'type');
  const hasAttr = method(G.Element, 'hasAttribute');
  const getAttr = method(G.Element, 'getAttribute'), setAttr = method(G.Element, 'setAttribute');
  const qsa = method(G.Element, 'querySelectorAll');
  const fragQsa = method(G.DocumentFragment, 'querySelectorAll');

  const isTarget = typeof ET === 'function' ? (o) => apply(hasInstance, ET, [o]) : () => false;
  const isTemplate = typeof Template === 'function' && contentOf !== undefined ? (o) => apply(hasInstance, Template, [o]) : () => false;
  const par = (n) => apply(parentOf, n, []);
  const first = (n) => apply(firstOf, n, []);
  const next = (n) => apply(nextOf, n, []);
  const type = (n) => apply(typeOf, n, []);

  let dom; // core.js's domApi, from start
  const parent = new SafeWeakMap(); // node -> the parent its edge was written from
  let observer;
  const observeOpts = { childList: true, subtree: true };

  // link writes the edge p -> n (n's site g when it has no id yet),
  // removing the one from n's former parent in the model.
  function link(n, p, g) {
    const old = parent.get(n);
    if (old === p) return;
    if (old !== undefined) dom.child(false, dom.idOf(old), dom.idOf(n));
    const pid = dom.id(p, g);
    dom.child(true, pid, dom.id(n, g));
    parent.set(n, p);
  }

  // unlink removes n's edge from its parent in the model.
  function unlink(n) {
    const old = parent.get(n);
    if (old === undefined) return;
    dom.child(false, dom.idOf(old), dom.idOf(n));
    parent.delete(n);
  }

  // sync brings n's edge up to date with its parentNode, and links the
  // subtree of a node the model links for the first time.
  function sync(n, g) {
    const p = par(n);
    const old = parent.get(n);
    if (p === old || (p === null && old === undefined)) return;
    if (p === null) {
      // A document fragment without a parent is a template's content or
      // a shadow root: held by its holder, not a parent.
      if (type(n) !== 11) unlink(n);
      return;
    }
    link(n, p, g);
    if (old === undefined) walk(n, g);
  }

  // walk links the subtree under n: each child whose edge the model does
  // not have (a child it has is taken to have its subtree linked, unless
  // all), and a template's content. Iterative: a page's tree may be deeper
  // than the stack.
  function walk(n, g, all) {
    const stack = [n];
    while (stack.length > 0) {
      const x = stack.pop();
      for (let c = first(x); c !== null; c = next(c)) {
        if (parent.get(c) === x) {
          if (all === true) stack[stack.length] = c;
          continue;
        }
        link(c, x, g);
        stack[stack.length] = c;
      }
      if (isTemplate(x)) {
        const c = apply(contentOf, x, []);
        if (isObj(c) && parent.get(c) !== x) {
          link(c, x, g);
          stack[stack.length] = c;
        }
      }
    }
  }

  // Code a page sets at run time, instrumented through the service before
  // the browser compiles it (by content: a page that makes the same
  // element over and over asks once), named by the page and a counter.
  const codeCache = new SafeMap();
  let dynamic = 0;
  let writes = 0;
  // (location's members are its own, unforgeable: read once, now.)
  let pageName = '';
  let pagePath = '/';
  try {
    const loc = G.location;
    pageName = apply(getOwnPropertyDescriptor(loc, 'href').get, loc, []);
    pagePath = apply(getOwnPropertyDescriptor(loc, 'pathname').get, loc, []);
  } catch { /* no location */ }
  function instrumented(kind, code, what) {
    if (inst === undefined || typeof code !== 'string' || code.length > 1 << 20) return undefined;
    const key = kind + '\0' + code;
    let r = codeCache.get(key);
    if (r === undefined) {
      const a = inst(pageName + '#' + what + '-dyn' + ++dynamic, false, false, code, kind);
      r = a !== null && a !== undefined && typeof a.code === 'string' ? a.code : null;
      if (codeCache.size < 512) codeCache.set(key, r);
    }
    return r === null ? undefined : r;
  }

  // htmlValue is the HTML an innerHTML or outerHTML write gives the
  // parser: with event handler attributes, rewritten by the server (they
  // compile when the event comes; the scripts such a write makes do not
  // run), by content.
  function htmlValue(v) {
    if (inst === undefined || typeof inst.html !== 'function' || typeof v !== 'string' || !hasHandler(v)) return v;
    const key = 'html\0' + v;
    let r = codeCache.get(key);
    if (r === undefined) {
      const a = inst.html(pagePath + '#html-' + ++writes, v);
      r = typeof a === 'string' ? a : null;
      if (codeCache.size < 512 && v.length < 1 << 16) codeCache.set(key, r);
    }
    return r === null ? v : r;
  }

  // setHandler: setAttribute(name, value) of an event handler attribute
  // gets the value's code instrumented (a function body).
  function setHandler(el, args) {
    const name = args[0], v = args[1];
    if (typeof name !== 'string' || name.length < 3 || typeof v !== 'string' || !isObj(el) || !isNode(el)) return;
    const low = apply(toLower, name, []);
    if (low[0] !== 'o' || low[1] !== 'n') return;
    const code = instrumented('handler', v, low);
    if (code !== undefined) args[1] = code;
  }

  // prepare instruments the text of the script elements about to be
  // inserted (among the nodes ns, or under them) that have not run: not
  // in a document, no src, a JavaScript or module type, not seen before.
  const prepared = new SafeWeakMap();
  function prepare(ns) {
    if (inst === undefined || scriptText === undefined) return ns;
    for (let k = 0; k < ns.length; k++) {
      const n = ns[k];
      if (isScript(n)) {
        prepareScript(n);
        continue;
      }
      const t = type(n);
      const list = t === 1 && qsa !== undefined ? apply(qsa, n, ['script']) : t === 11 && fragQsa !== undefined ? apply(fragQsa, n, ['script']) : null;
      if (list === null) continue;
      const m = apply(listLength, list, []);
      for (let j = 0; j < m; j++) prepareScript(apply(listItem, list, [j]));
    }
    return ns;
  }
  function prepareScript(s) {
    if (prepared.get(s) !== undefined) return;
    prepared.set(s, true);
    let connected = true;
    try { connected = apply(connectedOf, s, []) === true; } catch { connected = true; }
    if (connected) return;
    const ty = scriptType !== undefined ? apply(toLower, apply(scriptType, s, []), []) : '';
    if (hasAttr !== undefined && apply(hasAttr, s, ['src'])) {
      // A script the page inserts with an integrity value: the value of
      // the bytes the server will serve for it, instrumented.
      if (typeof inst.integrity === 'function' && getAttr !== undefined && setAttr !== undefined && apply(hasAttr, s, ['integrity'])) {
        const v = inst.integrity(pageName, apply(getAttr, s, ['src']), ty === 'module', apply(getAttr, s, ['integrity']));
        if (typeof v === 'string' && v !== '') apply(setAttr, s, ['integrity', v]);
      }
      return;
    }
    const kind = ty === 'module' ? 'module' : ty === '' || ty === 'text/javascript' || ty === 'application/javascript' ? 'script' : '';
    if (kind === '') return;
    const code = instrumented(kind, apply(scriptText.get, s, []), 'script');
    if (code !== undefined) apply(scriptText.set, s, [code]);
  }

  // children lists n's children.
  function children(n) {
    const out = [];
    for (let c = first(n); c !== null; c = next(c)) out[out.length] = c;
    return out;
  }

  // moved lists the nodes a call that inserts its arguments moves: each
  // node argument, a fragment's children instead of the fragment; strings
  // (new text nodes) set out.text.
  function moved(args, from, out) {
    for (let k = from; k < args.length; k++) {
      const a = args[k];
      if (isObj(a) && isNode(a)) {
        if (type(a) === 11) {
          for (let c = first(a); c !== null; c = next(c)) out[out.length] = c;
        } else {
          out[out.length] = a;
        }
      } else {
        out.text = true;
      }
    }
    return out;
  }

  function syncAll(ns, g) {
    for (let k = 0; k < ns.length; k++) sync(ns[k], g);
  }

  // The page's records: what code other than the instrumented calls
  // changed (the parser, uninstrumented code, ranges, editing).
  // While the page is parsed, what the parser adds waits for the walk at
  // the parser's end (its nodes are the initial document, unless a script
  // looks one up first: then the lookup is its site, as in MemInsight's
  // traversal at DOMContentLoaded); only removals are taken.
  function records(rs) {
    if (dom === undefined) return;
    const loading = !parsedDone;
    dom.outside(-1, () => {
      for (let k = 0; k < rs.length; k++) {
        const r = rs[k];
        const rem = apply(recRemoved, r, []);
        const nr = apply(listLength, rem, []);
        for (let j = 0; j < nr; j++) sync(apply(listItem, rem, [j]), -1);
        const add = apply(recAdded, r, []);
        if (loading) {
          if (apply(listLength, add, []) > 0) added = true;
          continue;
        }
        const na = apply(listLength, add, []);
        for (let j = 0; j < na; j++) sync(apply(listItem, add, [j]), -1);
      }
    });
  }

  // parsed: the parser is done (or the event loop runs the page's code
  // before it is): the document parsed so far is linked, site -2.
  let parsedDone = false;
  let added = false; // the parser added nodes since the last walk
  function parsed() {
    if (parsedDone || dom === undefined) return;
    added = false;
    let st = 'complete';
    try { st = readyOf !== undefined ? apply(readyOf, doc, []) : 'complete'; } catch { st = 'complete'; }
    if (st !== 'loading') parsedDone = true;
    if (!initialDone) initial(false);
    else dom.outside(-2, () => walk(doc, -2, true));
  }

  // linkUp links n, a node of the document the model has no edge for,
  // and its ancestors up to one it has (site -2: the parser made them).
  function linkUp(n) {
    for (let x = n; ;) {
      const p = par(x);
      if (p === null || parent.get(x) === p) return;
      const had = parent.get(p) !== undefined || p === doc;
      link(x, p, -2);
      if (had) return;
      x = p;
    }
  }

  // guarded is f, which never throws into the page.
  function guarded(f) {
    return function (...a) {
      try {
        return apply(f, undefined, a);
      } catch { /* never into the page */ }
    };
  }

  // initial is MemInsight's traversal: the document (a global name), its
  // root (DOM_ROOT) and every node under it, site -2; then the observer.
  let initialDone = false;
  const initial = guarded((inside) => {
    if (dom === undefined || initialDone) return;
    initialDone = true;
    dom.outside(-2, () => {
      const docId = dom.id(doc, -2);
      // (In the middle of the program's code, a name of the program's
      // may shadow the global one: the engine resolves a WRITE in the
      // current frame.)
      dom.write(-2, inside === true ? '~document~' : 'document', docId);
      const root = rootOf !== undefined ? apply(rootOf, doc, []) : null;
      if (isObj(root)) {
        const rid = dom.id(root, -2);
        dom.put(-2, docId, 'documentElement', rid);
        dom.root(rid);
        walk(root, -2);
      }
      walk(doc, -2);
    }, inside);
    if (observer !== undefined) apply(observe, observer, [doc, observeOpts]);
  });

  const model = {
    before: guarded((kind, ci, base, args) => {
      if (dom === undefined) return undefined;
      switch (kind) {
        case D_SET_ATTR:
          setHandler(base, args);
          return undefined;
        case D_WRITE:
          // The HTML written goes to the parser: its scripts and handlers
          // are rewritten first, by the server, as a page's are.
          if (inst === undefined || typeof inst.html !== 'function') return undefined;
          for (let k = 0; k < args.length; k++) {
            const v = args[k];
            if (typeof v !== 'string' || apply(strIndexOf, v, ['<']) < 0) continue;
            const r = inst.html(pagePath + '#write-' + ++writes, v);
            if (typeof r === 'string') args[k] = r;
          }
          return undefined;
        case D_RAF: {
          // A global name holds the callback until it runs (as the core's
          // timers' do).
          const fun = args[0];
          if (typeof fun !== 'function') return undefined;
          const name = '~raf~' + ++rafCount;
          dom.write(ci, name, dom.id(fun, ci));
          args[0] = function (t) {
            try {
              return apply(fun, this, [t]);
            } finally {
              rafNames.delete(name);
              guarded(() => dom.outside(-1, () => dom.write(-1, name, 0)))();
            }
          };
          return name;
        }
        case D_CANCEL_RAF: {
          const name = rafIds.get(args[0]);
          if (name !== undefined && rafNames.has(name)) {
            rafIds.delete(args[0]);
            rafNames.delete(name);
            dom.write(ci, name, 0);
          }
          return undefined;
        }
        case D_MOVE:
          return prepare(moved(args, 0, []));
        case D_PARENT_ADD: {
          const out = prepare(moved(args, 0, []));
          out.where = base;
          return out;
        }
        case D_REPLACE_CHILDREN: {
          const out = isObj(base) && isNode(base) ? children(isTemplate(base) ? apply(contentOf, base, []) : base) : [];
          moved(args, 0, out);
          out.where = isObj(base) && isTemplate(base) ? apply(contentOf, base, []) : base;
          out.text = true;
          return out;
        }
        case D_SIBLING_ADD: {
          const out = prepare(moved(args, 0, []));
          out.where = isObj(base) && isNode(base) ? par(base) : null;
          return out;
        }
        case D_REPLACE_WITH: {
          const out = moved(args, 0, []);
          out[out.length] = base;
          out.where = isObj(base) && isNode(base) ? par(base) : null;
          return out;
        }
        case D_ADJACENT: {
          const p = typeof args[0] === 'string' ? apply(toLower, args[0], []) : '';
          return { where: p === 'beforebegin' || p === 'afterend' ? par(base) : base };
        }
        default:
          return undefined;
      }
    }),
    after: guarded((kind, ci, base, args, val, pre) => {
      if (dom === undefined) return;
      switch (kind) {
        case D_MOVE:
          syncAll(pre, ci);
          // replaceChild(new, old): old leaves.
          if (args.length > 1 && isObj(args[1]) && isNode(args[1])) sync(args[1], ci);
          break;
        case D_PARENT_ADD:
        case D_REPLACE_CHILDREN:
        case D_SIBLING_ADD:
        case D_REPLACE_WITH:
          syncAll(pre, ci);
          // New text nodes (string arguments) are where the call put them.
          if (pre.text === true && isObj(pre.where)) walkFrom(pre.where, ci);
          break;
        case D_ADJACENT:
          if (isObj(pre.where)) walkFrom(pre.where, ci);
          break;
        case D_ADJACENT_EL:
          if (isObj(args[1]) && isNode(args[1])) sync(args[1], ci);
          break;
        case D_COPY:
          if (isObj(val) && isNode(val)) walkFrom(val, ci);
          break;
        case D_ADOPT:
          if (isObj(args[0]) && isNode(args[0])) sync(args[0], ci);
          break;
        case D_WORKER:
          if (isObj(val)) workers[workers.length] = val;
          break;
        case D_RAF:
          if (typeof pre === 'string' && typeof val === 'number') {
            rafIds.set(val, pre);
            rafNames.set(pre, true);
          }
          break;
        case D_CHANNEL:
          if (isObj(val) && port1Of !== undefined && port2Of !== undefined) {
            const p1 = apply(port1Of, val, []), p2 = apply(port2Of, val, []);
            const c = dom.id(val, ci), i1 = dom.id(p1, ci), i2 = dom.id(p2, ci);
            dom.put(ci, c, 'port1', i1);
            dom.put(ci, c, 'port2', i2);
            // An entangled port can still be posted to: its other end
            // keeps it (and the handler it holds).
            dom.put(ci, i1, '~entangled~', i2);
            dom.put(ci, i2, '~entangled~', i1);
            entangled.set(p1, p2);
            entangled.set(p2, p1);
          }
          break;
        case D_PORT_CLOSE: {
          const other = isObj(base) ? entangled.get(base) : undefined;
          if (other !== undefined) {
            entangled.delete(base);
            entangled.delete(other);
            const a = dom.idOf(base), b = dom.idOf(other);
            if (a !== 0) dom.put(ci, a, '~entangled~', 0);
            if (b !== 0) dom.put(ci, b, '~entangled~', 0);
          }
          break;
        }
        case D_XHR_SEND:
          // In flight, the request is the browser's (a global name),
          // until loadend.
          if (isObj(base) && addListener !== undefined) {
            const id = dom.id(base, ci);
            const name = '~xhr~' + id;
            dom.write(ci, name, id);
            apply(addListener, base, ['loadend', guarded(() => dom.outside(-1, () => dom.write(-1, name, 0))), { once: true }]);
          }
          break;
        case D_FETCH:
          // Pending, the promise is the browser's, until it settles.
          if (isObj(val) && promiseThen !== undefined) {
            const id = dom.id(val, ci);
            const name = '~fetch~' + id;
            dom.write(ci, name, id);
            const done = guarded(() => dom.outside(-1, () => dom.write(-1, name, 0)));
            apply(promiseThen, val, [done, done]);
          }
          break;
        case D_OBSERVER:
          if (isObj(val) && typeof args[0] === 'function') dom.put(ci, dom.id(val, ci), '~callback~', dom.id(args[0], ci));
          break;
        case D_OBSERVE:
          if (isObj(base) && isObj(args[0])) {
            const oid = dom.id(base, ci);
            dom.put(ci, dom.id(args[0], ci), '~observer~' + oid, oid);
          }
          break;
        case D_UNOBSERVE:
          if (isObj(base) && isObj(args[0])) {
            const oid = dom.idOf(base), tid = dom.idOf(args[0]);
            if (oid !== 0 && tid !== 0) dom.put(ci, tid, '~observer~' + oid, 0);
          }
          break;
        case D_SHADOW:
          if (isObj(val) && isObj(base)) {
            link(val, base, ci);
            if (observer !== undefined) apply(observe, observer, [val, observeOpts]);
          }
          break;
        default:
      }
    }),
    // enter: the event loop calls the page's code (a timer, a listener):
    // the document parsed so far is the initial one (a timer may run
    // before the parser's end).
    enter() {
      if (!parsedDone && dom !== undefined && (added || !initialDone)) guarded(parsed)();
    },
    // created: node n got its id. One of the document's before the
    // initial traversal (a script that runs while the page is parsed
    // looked it up): the traversal runs now, so that the document holds
    // what the script does with it.
    created(n) {
      if (parsedDone || dom === undefined) return;
      let c = false;
      try { c = connectedOf !== undefined && apply(connectedOf, n, []) === true; } catch { c = false; }
      if (!c) return;
      if (!initialDone) initial(true);
      else guarded(() => dom.outside(-2, () => linkUp(n), true))();
    },
    // put: before a write of o's property k, what the write's model needs
    // (undefined: none).
    put(o, k) {
      if (dom === undefined) return undefined;
      try {
        const c0 = k.charCodeAt(0);
        if (c0 === 111) { // on...
          return k.length > 2 && k.charCodeAt(1) === 110 && isTarget(o) ? ON : undefined;
        }
        if (k === 'innerHTML' || k === 'textContent' || k === 'innerText') {
          if (!isNode(o)) return undefined;
          const t = type(o);
          if (t !== 1 && t !== 11) return undefined;
          const where = isTemplate(o) && k === 'innerHTML' ? apply(contentOf, o, []) : o;
          const out = children(where);
          out.where = where;
          if (k === 'innerHTML') out.value = htmlValue;
          return out;
        }
        if (k === 'outerHTML' || k === 'outerText') {
          if (!isNode(o) || type(o) !== 1) return undefined;
          const p = par(o);
          return p === null ? undefined : { where: p, value: k === 'outerHTML' ? htmlValue : undefined };
        }
      } catch { /* not the model's */ }
      return undefined;
    },
    putDone: guarded((g, o, k, v, pre) => {
      if (pre === ON) {
        // A handler property (an accessor of the platform's; a data
        // property the page made is the core's PUTFIELD already).
        if (hasOwn(o, k)) return;
        dom.put(g, dom.id(o, g), k, typeof v === 'function' || (isObj(v) && !isArray(v)) ? dom.id(v, g) : 0);
        return;
      }
      if (isArray(pre)) {
        syncAll(pre, g); // the old children leave
        walkFrom(pre.where, g);
        return;
      }
      sync(o, g); // outerHTML: o leaves
      walkFrom(pre.where, g);
    }),
  };
  const ON = { on: true };

  // walkFrom links the subtree under n, which gets its id at g if it has
  // none.
  function walkFrom(n, g) {
    dom.id(n, g);
    walk(n, g);
  }

  const workers = [];
  let rafCount = 0;
  const rafIds = new SafeMap(); // requestAnimationFrame's id -> its callback's global name
  const rafNames = new SafeMap(); // the names of the callbacks not run yet
  const entangled = new SafeWeakMap(); // a channel's port -> the other
  const promiseThen = typeof G.Promise === 'function' ? G.Promise.prototype.then : undefined;
  const port1Of = getter(G.MessageChannel, 'port1'), port2Of = getter(G.MessageChannel, 'port2');
  const marks = [];
  const mark = (f, kind) => {
    if (typeof f === 'function') marks[marks.length] = [f, kind];
  };
  for (const m of ['appendChild', 'insertBefore', 'replaceChild', 'removeChild']) mark(method(Node, m), D_MOVE);
  mark(method(Node, 'cloneNode'), D_COPY);
  for (const C of [G.Element, G.Document, G.DocumentFragment]) {
    mark(method(C, 'append'), D_PARENT_ADD);
    mark(method(C, 'prepend'), D_PARENT_ADD);
    mark(method(C, 'replaceChildren'), D_REPLACE_CHILDREN);
  }
  for (const C of [G.Element, G.CharacterData, G.DocumentType]) {
    mark(method(C, 'before'), D_SIBLING_ADD);
    mark(method(C, 'after'), D_SIBLING_ADD);
    mark(method(C, 'replaceWith'), D_REPLACE_WITH);
    mark(method(C, 'remove'), D_REPLACE_WITH);
  }
  mark(method(G.Element, 'insertAdjacentHTML'), D_ADJACENT);
  mark(method(G.Element, 'insertAdjacentText'), D_ADJACENT);
  mark(method(G.Element, 'insertAdjacentElement'), D_ADJACENT_EL);
  mark(method(G.Element, 'setHTMLUnsafe'), D_REPLACE_CHILDREN);
  mark(method(G.ShadowRoot, 'setHTMLUnsafe'), D_REPLACE_CHILDREN);
  mark(method(G.Element, 'attachShadow'), D_SHADOW);
  if (typeof G.Worker === 'function') mark(G.Worker, D_WORKER);
  mark(method(G.Element, 'setAttribute'), D_SET_ATTR);
  mark(method(G.Document, 'write'), D_WRITE);
  if (typeof G.MessageChannel === 'function') mark(G.MessageChannel, D_CHANNEL);
  mark(method(G.XMLHttpRequest, 'send'), D_XHR_SEND);
  if (typeof G.fetch === 'function') mark(G.fetch, D_FETCH);
  mark(method(G.MessagePort, 'close'), D_PORT_CLOSE);
  mark(method(G.Document, 'writeln'), D_WRITE);
  if (typeof G.requestAnimationFrame === 'function') mark(G.requestAnimationFrame, D_RAF);
  if (typeof G.cancelAnimationFrame === 'function') mark(G.cancelAnimationFrame, D_CANCEL_RAF);
  for (const C of [G.ResizeObserver, G.IntersectionObserver, G.MutationObserver]) {
    if (typeof C !== 'function') continue;
    mark(C, D_OBSERVER);
    mark(method(C, 'observe'), D_OBSERVE);
    mark(method(C, 'unobserve'), D_UNOBSERVE);
  }
  mark(method(G.Document, 'importNode'), D_COPY);
  mark(method(G.Document, 'adoptNode'), D_ADOPT);
  mark(method(G.DOMParser, 'parseFromString'), D_COPY);
  mark(method(G.Range, 'createContextualFragment'), D_COPY);
  mark(method(G.Range, 'cloneContents'), D_COPY);
  mark(method(G.Range, 'extractContents'), D_COPY);
  if (typeof G.Document === 'function' && typeof G.Document.parseHTMLUnsafe === 'function') mark(G.Document.parseHTMLUnsafe, D_COPY);

  const post = typeof G.Worker === 'function' ? G.Worker.prototype.postMessage : undefined;
  return {
    isNode,
    marks,
    model,
    // endWorkers tells the page's dedicated workers that the page goes
    // away (msg: what their shim listens for), so that their traces end
    // in order.
    endWorkers: guarded((msg) => {
      for (let k = 0; k < workers.length; k++) apply(post, workers[k], [msg]);
    }),
    // start gives the model the core's domApi; the initial traversal runs
    // when the parser is done (before the page's own listeners, registered
    // later), or now when the document is parsed already.
    start(d) {
      dom = d;
      try {
        observer = typeof MO === 'function' && observe !== undefined ? new MO(guarded(records)) : undefined;
      } catch {
        observer = undefined;
      }
      let loading = false;
      try { loading = readyOf !== undefined && apply(readyOf, doc, []) === 'loading'; } catch { loading = false; }
      // (readystatechange to interactive: the parser's end, before the
      // deferred scripts and the DOMContentLoaded task, which a timer the
      // page set may precede.)
      if (loading && addListener !== undefined) {
        const once = guarded(() => {
          let st = 'loading';
          try { st = apply(readyOf, doc, []); } catch { st = 'complete'; }
          if (st !== 'loading') parsed();
        });
        apply(addListener, doc, ['readystatechange', once, true]);
        apply(addListener, doc, ['DOMContentLoaded', once, true]);
      } else {
        parsed();
      }
    },
    // flush takes the records the observer has not delivered (the trace
    // is about to end).
    flush: guarded(() => {
      if (!parsedDone) parsed();
      if (observer !== undefined && takeRecords !== undefined) records(apply(takeRecords, observer, []));
    }),
  };
}

