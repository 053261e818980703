// Uncaught exceptions under Node. Above an uncaught error Node prints
// where it was thrown ("file:line", that line, a caret), from the text V8
// compiled: in instrumented code a line of hooks, not the program's. The
// shim prints the original line there instead:
//
// - where: for an exception a throw statement threw, that statement (the
//   instrumenter gives the value thrown to Tw, which notes the frame:
//   stacks.js, noteThrow);
//   otherwise, as V8 does, the error's first stack frame in a file (an
//   error V8 threw, a rejected promise's reason);
// - what: the original text of that line, with a caret under the column;
// - Node's own line is left out through the mark Node gives an error that
//   leaves a vm script (DecorateErrorStack: Node then prints the error's
//   stack alone, as that mark says the stack holds the line already); the
//   error's stack is restored at once, and the shim writes the line to
//   standard error just before Node writes the error.
//
// Left as Node prints them: values that are not objects (Node prints their
// line before any JavaScript runs), errors whose stack cannot be written
// (frozen), SyntaxErrors (a parse's points into the text parsed),
// exceptions thrown outside instrumented code or in code made from a
// string, and those a worker thread leaves to its parent.

import { apply, strSlice } from '../natives.js';
import { instrumentedFile, madeAtOf, originalAt, thrownAtOf } from '../stacks.js';

// fatalLine returns what Node would print above uncaught error err (origin:
// the 'uncaughtException' event's second argument) had the program run
// uninstrumented, or undefined: textOf(file) returns a file's original
// text.
export function fatalLine(err, origin, textOf) {
  if (err === null || typeof err !== 'object' && typeof err !== 'function') return undefined;
  // (The error's stack formatted, as Node formats it next: madeAt.) A
  // SyntaxError of a parse (JSON.parse, eval) carries where V8 points
  // itself: into the text parsed, which is not instrumented.
  try {
    void err.stack;
    if (err.name === 'SyntaxError') return undefined;
  } catch { /* a throwing getter: Node reports it */ }
  let at, thrown = false;
  if (origin === 'uncaughtException') {
    at = originalAt(thrownAtOf(err));
    thrown = at !== undefined;
  }
  if (at === undefined) {
    const made = madeAtOf(err);
    if (made !== undefined && instrumentedFile(made[0])) at = made;
  }
  if (at === undefined) return undefined;
  const [file, line, col] = at;
  let text;
  try { text = textOf(file); } catch { text = undefined; }
  if (typeof text !== 'string' || !(line >= 1) || !(col >= 1)) return undefined;
  // The line (line terminators as the engine counts them).
  let start = 0;
  for (let l = 1; l < line; l++) {
    const n = nextLine(text, start);
    if (n < 0) return undefined;
    start = n;
  }
  let end = start;
  while (end < text.length && !isTerminator(text[end])) end++;
  const src = apply(strSlice, text, [start, end]);
  if (col - 1 > src.length) return undefined;
  // Tw's frame is at the value thrown; V8 points at the throw statement,
  // on the same line (no line break may follow "throw").
  let c = col - 1;
  if (thrown) {
    let k = c;
    while (k > 0 && (src[k - 1] === ' ' || src[k - 1] === '\t' || src[k - 1] === '(')) k--;
    if (k >= 5 && apply(strSlice, src, [k - 5, k]) === 'throw') c = k - 5;
  }
  let caret = '';
  for (let k = 0; k < c; k++) caret += src[k] === '\t' ? '\t' : ' ';
  return file + ':' + line + '\n' + src + '\n' + caret + '^\n';
}

function isTerminator(c) {
  return c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029';
}

// nextLine returns the offset after the line terminator that ends the line
// at start, or -1 at the text's end.
function nextLine(text, start) {
  for (let k = start; k < text.length; k++) {
    const c = text[k];
    if (c === '\r') return text[k + 1] === '\n' ? k + 2 : k + 1;
    if (isTerminator(c)) return k + 1;
  }
  return -1;
}

// markPrinted gives err the mark Node gives an error a vm script threw,
// so that Node prints no line above it, and leaves its stack as it was:
// runNew is vm.runInNewContext as Node defined it. Reports whether the
// mark took.
export function markPrinted(err, runNew) {
  let before;
  try { before = err.stack; } catch { return false; }
  if (typeof before !== 'string' || typeof runNew !== 'function') return false;
  try {
    runNew('throw e', { e: err }, { filename: 'memtrace', displayErrors: true });
  } catch { /* err, thrown back */ }
  let after;
  try { after = err.stack; } catch { return false; }
  if (after === before) return false; // not marked (an object without a writable stack)
  try { err.stack = before; } catch { /* kept */ }
  try { return err.stack === before; } catch { return false; }
}
