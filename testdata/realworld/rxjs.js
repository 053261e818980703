// rxjs: operator pipelines of closures, subscriptions, a timer-driven source.
const { from, interval, of } = require('rxjs');
const { map, filter, scan, take, mergeMap, toArray } = require('rxjs/operators');
from([1, 2, 3, 4, 5]).pipe(filter((x) => x % 2), map((x) => x * 10), scan((a, b) => a + b, 0)).subscribe((v) => console.log('v', v));
of(1, 2).pipe(mergeMap((x) => of(x, x * 2)), toArray()).subscribe((a) => console.log(JSON.stringify(a)));
interval(1).pipe(take(3)).subscribe({ next: (x) => console.log('t', x), complete: () => console.log('done') });
