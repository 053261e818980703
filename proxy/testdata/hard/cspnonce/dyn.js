window.results.dyn = 'loaded by strict-dynamic'; window.__memTestDone = true;
