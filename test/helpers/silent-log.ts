import { pino } from 'pino';
import type { Logger } from '../../src/log/index.js';

/** For calls that take a logger when the test reads none of its lines. */
export const silentLog: Logger = pino({ level: 'silent' });
