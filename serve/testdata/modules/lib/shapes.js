export class Square {
  constructor(side) { this.side = side; }
}
export function area(s) { return s.side * s.side; }
