import { join } from 'node:path';
import { renderFlameGraphSvg, renderProfileHtml, type ProfileReport } from '../report/index.js';
import { rankGrownFrames, sampleCount } from '../profile/index.js';
import { privateDir } from '../server/index.js';
import { writeFileSafely } from '../trust/index.js';
import type { ProfileRecord } from '../store/index.js';
import type { ProfileOutcome } from './profile-run.js';

/** Where a profile's flame graph and page are: a folder of its own under state_dir/profiles. */
export interface ProfileFiles {
  svg: string;
  html: string;
}

/** A profile as its report shows it: the title names the test and both sides, C against B. */
export function profileReport(
  outcome: ProfileOutcome,
  baseline: string,
  candidate: string,
  test: string,
): ProfileReport {
  return {
    title: `Profile ${outcome.id}: ${test}, ${candidate} (C) against ${baseline} (B)`,
    baselineName: baseline,
    candidateName: candidate,
    baseline: outcome.baseline,
    candidate: outcome.candidate,
    grown: outcome.grown,
  };
}

/** The paths a profile's files have, written or not. */
export function profileFiles(stateDir: string, id: number): ProfileFiles {
  const dir = join(stateDir, 'profiles', String(id));
  return { svg: join(dir, 'flame-graph.svg'), html: join(dir, 'profile.html') };
}

/**
 * Writes the differential flame graph (SVG) and the page with the table and the graph. The folder is made as the state
 * folder's others are (no link on the way, nobody else's), and a file left by an earlier store with the same profile
 * id is removed first, so a link in its place is never followed.
 */
export async function writeProfileFiles(stateDir: string, id: number, report: ProfileReport): Promise<ProfileFiles> {
  const files = profileFiles(stateDir, id);
  await privateDir(join(stateDir, 'profiles', String(id)));
  const svgText = renderFlameGraphSvg({
    title: report.title,
    baseline: report.baseline.stacks,
    candidate: report.candidate.stacks,
  });
  writeNew(files.svg, svgText);
  writeNew(files.html, renderProfileHtml(report, svgText));
  return files;
}

/** A stored profile as its report shows it again (qpswatch show of the check's session it was taken for). */
export function storedProfileReport(record: ProfileRecord): ProfileReport {
  const side = (tool: ProfileRecord['baselineTool'], stacks: ProfileRecord['baselineStacks']) => ({
    tool,
    samples: sampleCount(stacks),
    stacks,
  });
  const outcome: ProfileOutcome = {
    id: record.id,
    baseline: side(record.baselineTool, record.baselineStacks),
    candidate: side(record.candidateTool, record.candidateStacks),
    grown: rankGrownFrames(record.baselineStacks, record.candidateStacks),
  };
  return profileReport(outcome, record.baseline, record.candidate, `${record.test}.t${record.threads}`);
}

/** Replaced whole, never through a link or a file someone put there (trust's write: a new file, then rename). */
function writeNew(file: string, text: string): void {
  writeFileSafely(file, text);
}
