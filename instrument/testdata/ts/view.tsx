// TSX: the classic JSX transform calls React.createElement.
const React = { createElement: (t: string, p: object | null, ...c: unknown[]) => ({ t, p, c }) };
interface Props { title: string; items: string[] }
function List({ title, items }: Props) {
  return <ul title={title}>{items.map((x: string) => <li key={x}>{x}</li>)}</ul>;
}
const tree = <List title="t" items={["a", "b"]} />;
console.log(JSON.stringify(List(tree.p as Props)));
