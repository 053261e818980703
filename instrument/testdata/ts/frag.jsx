// JSX: elements and fragments.
const React = { createElement: (t, p, ...c) => ({ t, p, c }), Fragment: "frag" };
const el = <><b id="x">bold</b>{" and "}<i>{1 + 2}</i></>;
console.log(JSON.stringify(el));
