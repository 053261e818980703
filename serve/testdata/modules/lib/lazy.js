import { counter } from './count.js';
export const value = () => ({ seen: counter.n }).seen * 10;
