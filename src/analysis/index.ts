export { compareSession } from './comparison.js';
export { median } from './median.js';
