export const m = { ok: 'module' };
window.mod = m;
