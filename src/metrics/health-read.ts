import type { DaemonHealth } from './source.js';

/** A collector reads the daemon's health through this: one shared read per scrape (see sharedRead). */
export type HealthRead = () => Promise<DaemonHealth>;
