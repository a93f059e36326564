import { judgeInstructionRuns, sessionFunctionGrowth, type InstructionVerdictSettings } from '../analysis/index.js';
import type { InstructionLaneSummary, InstructionsView, InstructionVerdict } from '../model/index.js';
import type { InstructionStore } from '../store/index.js';

/** What a lane's view reads of the store: the session's counted runs and both sides' function tables. */
export type LaneViewStore = Pick<InstructionStore, 'instructionRuns' | 'instructionFunctions'>;

/**
 * A session's lane as every report shows it: how it ended, its verdicts (given, as a check recorded them, or judged
 * from the runs with `settings`), and per test the functions that grew from B to C. A lane that did not end done has
 * no verdicts: its runs were never judged.
 */
export async function sessionLaneView(
  store: LaneViewStore,
  sessionId: number,
  lane: InstructionLaneSummary,
  verdicts: { settings: InstructionVerdictSettings } | { recorded: InstructionVerdict[] },
): Promise<InstructionsView> {
  if (lane.state !== 'done') return { lane, verdicts: [] };
  const judged =
    'recorded' in verdicts
      ? verdicts.recorded
      : judgeInstructionRuns(await store.instructionRuns(sessionId), verdicts.settings);
  return { lane, verdicts: judged, grown: sessionFunctionGrowth(judged, await store.instructionFunctions(sessionId)) };
}
