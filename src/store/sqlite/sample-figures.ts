import type { SampleStore, SideTestFigures } from '../sample-types.js';
import { checkId } from '../validate.js';
import { SqliteRole } from './connection.js';
import { FigurePacks } from './figure-packs.js';
import { SessionStates } from './session-states.js';

/**
 * The figures of one session's samples, and nothing else: /metrics reads every done session's samples once, and
 * materialising whole SampleRecords (host usage JSON, database counters) made the first scrape over 100,000 samples
 * take seconds. A done session's come from its pack (figure-packs.ts).
 */
export class SqliteSampleFigures extends SqliteRole implements Pick<SampleStore, 'sampleFigures'> {
  readonly #states = new SessionStates(this.connection);
  readonly #figures = new FigurePacks(this.connection);

  async sampleFigures(sessionId: number): Promise<SideTestFigures[]> {
    checkId('session', 'sessionId', sessionId);
    return this.read('read sample figures', () => {
      this.#states.of(sessionId);
      return this.#figures.read(sessionId);
    });
  }
}
