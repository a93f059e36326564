import type { InstructionVerdictSettings } from '../analysis/index.js';
import type { InstructionsView } from '../model/index.js';
import { sessionLaneView } from '../session/index.js';
import type { CheckStore, InstructionStore, SessionStore } from '../store/index.js';

/**
 * A stored session's instructions lane as compare printed it: how the lane ended, its verdicts (a check's as it
 * recorded them, else judged again from the runs with today's thresholds) and the functions that grew; undefined when
 * the session had no lane. Only a done session's runs are judged: one that did not finish was never judged.
 */
export async function storedInstructionsView(
  store: InstructionStore & Pick<CheckStore, 'instructionVerdictsOfSession' | 'getCheck'> & SessionStore,
  sessionId: number,
  settings: InstructionVerdictSettings,
): Promise<InstructionsView | undefined> {
  const lane = await store.instructionLane(sessionId);
  if (lane === undefined) return undefined;
  const { sessionId: _, ...summary } = lane;
  if (lane.state !== 'done' || (await store.getSession(sessionId))?.state !== 'done')
    return { lane: summary, verdicts: [] };
  if ((await store.getCheck(sessionId)) !== undefined) {
    const recorded = (await store.instructionVerdictsOfSession(sessionId)).map(({ sessionId: __, ...v }) => v);
    return sessionLaneView(store, sessionId, summary, { recorded });
  }
  return sessionLaneView(store, sessionId, summary, { settings });
}
