// nested: none
// Node's timers refuse code strings: the same TypeError, instrumented.
try { setTimeout("console.log('ran')", 0); } catch (err) { console.log(err.constructor.name, err.message); }
try { setInterval("1", 10); } catch (err) { console.log(err.constructor.name, err.message); }
setTimeout(() => console.log('function timer'), 0);
