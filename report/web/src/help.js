// The keys' help: a modal dialog, opened with ? and closed with Escape.
import { h } from './util.js';

// Each row: the keys (each a list of what to press in turn) and what they do.
const KEYS = [
  [['/'], 'filter the sites (on the overview)'],
  [['j', 'k'], 'next / previous row of the sites table'],
  [['\u2193', '\u2191'], 'the same, in the table'],
  [['Enter'], 'open the highlighted site'],
  [['Esc', 'Backspace'], 'back to the overview'],
  [['n', 'p'], 'next / previous site, on a site\u2019s page'],
  [['[', ']'], 'earlier / later moment of the retainers (\u2190 \u2192 on its chart)'],
  [['g o', 'g d', 'g b'], 'go to the overview, the detached DOM, the baseline'],
  [['t'], 'switch light / dark'],
  [['?'], 'this help'],
];

export function helpDialog() {
  const rows = KEYS.map(([k, what]) =>
    h(
      'tr',
      null,
      h(
        'th',
        { scope: 'row' },
        k.map((x, i) => [i ? ' ' : null, h('kbd', null, x)])
      ),
      h('td', null, what)
    )
  );
  const close = h('button', { type: 'button', class: 'close', 'aria-label': 'Close' }, 'Close');
  const box = h('div', { class: 'help', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'help-title', tabindex: '-1', hidden: true }, h('div', { class: 'help-card' }, h('h2', { id: 'help-title' }, 'Keys'), h('table', null, h('tbody', null, rows)), h('p', { class: 'hint' }, 'Tab reaches everything; links are links, so the browser\u2019s back button works.'), close));
  let before = null;
  const hide = () => {
    if (box.hidden) return;
    box.hidden = true;
    document.documentElement.classList.remove('modal-open');
    if (before && before.focus) before.focus({ preventScroll: true });
  };
  close.addEventListener('click', hide);
  box.addEventListener('click', (e) => {
    if (e.target === box) hide();
  });
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' || e.key === '?') {
      e.preventDefault();
      hide();
    } else if (e.key === 'Tab') {
      // One button: the focus stays on it.
      e.preventDefault();
      close.focus();
    }
  });
  return {
    el: box,
    isOpen: () => !box.hidden,
    open() {
      before = document.activeElement;
      box.hidden = false;
      document.documentElement.classList.add('modal-open');
      close.focus();
    },
  };
}
