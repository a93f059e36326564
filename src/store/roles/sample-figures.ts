import type { SampleStore, SideTestFigures } from '../sample-types.js';
import { checkId } from '../validate.js';
import { SqlRole } from '../sql.js';
import { readFigures } from './figure-packs.js';
import { sessionState } from './session-states.js';

/**
 * The figures of one session's samples, and nothing else: /metrics reads every done session's samples once, and
 * materialising whole SampleRecords (host usage JSON, database counters) made the first scrape over 100,000 samples
 * take seconds. A done session's come from its pack (figure-packs.ts).
 */
export class SampleFigures extends SqlRole implements Pick<SampleStore, 'sampleFigures'> {
  async sampleFigures(sessionId: number): Promise<SideTestFigures[]> {
    checkId('session', 'sessionId', sessionId);
    return this.read('read sample figures', async (tx) => {
      await sessionState(tx, sessionId);
      return readFigures(tx, sessionId);
    });
  }
}
