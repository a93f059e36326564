import type { SampleRole } from '../model/index.js';

/**
 * Which side runs first in a round: B C, C B, B C, ... so over the session each side runs first as often as the
 * other, and a host that slowly warms or cools up favours neither (the order A B B A A B of the reference studies).
 */
export function roundOrder(round: number): [SampleRole, SampleRole] {
  return round % 2 === 1 ? ['baseline', 'candidate'] : ['candidate', 'baseline'];
}
