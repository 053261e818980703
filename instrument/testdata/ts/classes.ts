// TypeScript: annotations, interfaces, generics, parameter properties, enums.
interface Shape { area(): number }
type Pair<A, B> = [A, B];
enum Kind { Circle = 1, Square }
class Circle implements Shape {
  readonly kind: Kind = Kind.Circle;
  constructor(public r: number, private tag?: string) {}
  area(): number { return Math.PI * this.r ** 2; }
}
function pair<A, B>(a: A, b: B): Pair<A, B> { return [a, b]; }
const shapes: Shape[] = [];
shapes.push(new Circle(2) as Shape);
const p = pair<string, number>("x", 1)!;
let total = 0;
for (const s of shapes) total += s.area();
console.log(total.toFixed(2), p[0], Kind[2]);
