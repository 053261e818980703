window.results.app = [{}, {}].length; window.__memTestDone = true;
