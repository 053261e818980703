// Light and dark: the system's preference unless the reader chose the
// other one with the toggle (remembered where the browser lets a file://
// page store anything).
import { h } from './util.js';

const KEY = 'memtrace-report:theme';
const listeners = new Set();
let choice = load(); // 'light', 'dark' or null: as the system
let mq = null;

function load() {
  try {
    const v = window.localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : null;
  } catch (e) {
    return null;
  }
}

function save(v) {
  try {
    if (v) window.localStorage.setItem(KEY, v);
    else window.localStorage.removeItem(KEY);
  } catch (e) {
    // file:// pages may not store: the choice lasts as long as the page.
  }
}

function system() {
  return mq && mq.matches ? 'dark' : 'light';
}

export function scheme() {
  return choice || system();
}

function apply() {
  const root = document.documentElement;
  root.dataset.theme = scheme();
  root.dataset.themeChoice = choice || 'system';
  for (const fn of listeners) fn();
}

// onSchemeChange calls fn after each change of scheme; it returns the
// function that stops it.
export function onSchemeChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function initTheme() {
  try {
    mq = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  } catch (e) {
    mq = null;
  }
  if (mq) {
    const changed = () => apply();
    if (mq.addEventListener) mq.addEventListener('change', changed);
    else if (mq.addListener) mq.addListener(changed);
  }
  // Another tab of the same report switched.
  window.addEventListener('storage', (e) => {
    if (e.key === KEY) {
      choice = load();
      apply();
    }
  });
  apply();
}

// toggleScheme switches to the other scheme; choosing the system's own
// forgets the choice, so that the page follows the system again.
export function toggleScheme() {
  const next = scheme() === 'dark' ? 'light' : 'dark';
  choice = next === system() ? null : next;
  save(choice);
  apply();
}

export function themeButton() {
  const b = h('button', { type: 'button', class: 'theme-toggle', id: 'theme-toggle' });
  const label = () => {
    const next = scheme() === 'dark' ? 'light' : 'dark';
    b.textContent = next === 'dark' ? '\u263E Dark' : '\u2600 Light';
    b.title = 'Switch to ' + next + ' colours (t)' + (choice ? '; now your choice, the system says ' + system() : '; now as the system');
    b.setAttribute('aria-label', 'Switch to ' + next + ' colours');
  };
  b.addEventListener('click', toggleScheme);
  onSchemeChange(label);
  label();
  return b;
}

// cssVar reads a custom property of the page as now styled.
export function cssVar(name, fallback) {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback || '#888';
}
