import type { Stats } from "node:fs";
import { basename } from "node:path";
export interface Entry { name: string; stats?: Stats }
export const entries: Map<string, Entry> = new Map();
export function add(path: string): Entry {
  const e: Entry = { name: basename(path) };
  entries.set(path, e);
  return e;
}
add("/tmp/a.txt");
console.log([...entries.keys()].join());
