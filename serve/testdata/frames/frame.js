var inFrame = [];
for (var i = 0; i < 100; i++) inFrame.push({ i: i });
parent.postMessage('hello ' + inFrame.length, '*');
