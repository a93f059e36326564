import type { SampleStore, SideTestFigures } from '../sample-types.js';
import { checkId } from '../validate.js';
import { MysqlRole } from './connection.js';
import { readFigures } from './figure-packs.js';
import { sessionState } from '../roles/session-states.js';

/** The figures of one session's samples and nothing else, for /metrics (sqlite/sample-figures.ts says why). */
export class MysqlSampleFigures extends MysqlRole implements Pick<SampleStore, 'sampleFigures'> {
  async sampleFigures(sessionId: number): Promise<SideTestFigures[]> {
    checkId('session', 'sessionId', sessionId);
    return this.read('read sample figures', async (tx) => {
      await sessionState(tx, sessionId);
      return readFigures(tx, sessionId);
    });
  }
}
