import type { BisectResult } from '../bisect/index.js';
import { printable } from '../report/index.js';
import type { BisectStepRecord, ReleaseRecord } from '../store/index.js';

const short = (commit: string): string => commit.slice(0, 12);

/** One step as it ends: which commit, its subject (data: control characters escaped), and what it was. */
export function bisectStepLine(step: BisectStepRecord, n: number, count: number): string {
  const what =
    step.outcome === 'skip'
      ? `did not build, skipped${step.failureLines?.[0] !== undefined ? `: ${printable(step.failureLines[0])}` : ''}`
      : `${step.outcome}${qpsText(step.relativeQps)}${instructionsText(step.instructionRatios)} ` +
        `(session ${step.sessionId})`;
  return `step ${n} (of ${count} commits): ${short(step.commit)} ${printable(step.subject)}: ${what}\n`;
}

function qpsText(relativeQps: Record<string, number> | undefined): string {
  const entries = Object.entries(relativeQps ?? {});
  return entries.length === 0 ? '' : `, ${entries.map(([t, q]) => `${printable(t)} ${q.toFixed(2)}`).join(', ')}`;
}

function instructionsText(ratios: Record<string, number> | undefined): string {
  const entries = Object.entries(ratios ?? {});
  return entries.length === 0
    ? ''
    : `, instructions ${entries.map(([t, r]) => `${printable(t)} x${r.toFixed(3)}`).join(', ')}`;
}

/** The bisection's end: the first bad commit with its subject and author, or why there is none, and the builds. */
export function bisectResultText(result: BisectResult, release: ReleaseRecord, good: ReleaseRecord): string {
  const { record, commits, bound } = result;
  const lines = [
    `bisect ${printable(release.tag)}: ${record.commitCount} commit(s) after ${printable(good.tag)}, ` +
      `tests ${record.tests.map(printable).join(', ')}, build profile ${record.buildProfile}`,
  ];
  const subjectOf = (commit: string): string => printable(commits.find((c) => c.commit === commit)?.subject ?? '');
  switch (record.outcome) {
    case 'found':
      lines.push(
        `first bad commit: ${record.firstBad!.commit}`,
        `  subject: ${printable(record.firstBad!.subject)}`,
        `  author:  ${printable(record.firstBad!.author)}`,
      );
      break;
    case 'ambiguous':
      lines.push('the first bad commit is one of these (the others did not build):');
      for (const c of record.candidates) lines.push(`  ${c} ${subjectOf(c)}`);
      break;
    case 'undecided':
      lines.push(
        `could not decide at ${short(record.steps.at(-1)!.commit)}: its sessions were neither clearly ` +
          `good nor clearly bad; the first bad commit is among the ${record.candidates.length} left`,
      );
      break;
    case 'budget':
      lines.push(
        `the budget ran out (bisect_max_builds, bisect_max_hours); the first bad commit is among the ` +
          `${record.candidates.length} left, ${short(record.candidates[0] ?? '')}..` +
          `${short(record.candidates.at(-1) ?? '')}`,
      );
      break;
    case 'failed':
      lines.push(`failed: ${printable(record.error ?? '')}`);
      break;
  }
  const skipped = record.steps.filter((s) => s.outcome === 'skip').map((s) => short(s.commit));
  lines.push(
    `builds: ${record.builds} (bound ceil(log2(${record.commitCount})) + 2 = ${bound})` +
      `${skipped.length > 0 ? `; skipped (did not build): ${skipped.join(', ')}` : ''}; ` +
      `${result.pruned.length} install(s) pruned; stored as bisection ${record.id}`,
  );
  if (result.countedRuns !== undefined) {
    const stepRuns = record.steps.filter((s) => s.instructionRatios !== undefined).length;
    lines.push(
      `judged on instructions per query: ${result.countedRuns} counted run(s) per test (bound ${bound}): ` +
        `${stepRuns} step(s)${result.countedRuns > stepRuns ? ' and the good end' : ''}`,
    );
  }
  return lines.join('\n') + '\n';
}
