import { UnknownFlavorError } from './errors.js';

/** The server families qpswatch benchmarks. Percona Server follows MySQL wherever the two agree. */
export const FLAVORS = ['mariadb', 'mysql', 'percona'] as const;
export type Flavor = (typeof FLAVORS)[number];

export function isFlavor(text: string): text is Flavor {
  return (FLAVORS as readonly string[]).includes(text);
}

export function parseFlavor(text: string): Flavor {
  if (!isFlavor(text)) throw new UnknownFlavorError(text, FLAVORS);
  return text;
}
