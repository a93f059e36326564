// A series of releases each a little slower than the one before, simulated as the daemon checks it (bench:sim): each
// release against its last good, the chain to the base, a confirming session against the base when the chain falls
// under the threshold (checks/drift.ts decides when), and last good only from a decided check.
import type { ChainStep, PairedJudgement } from '../../src/analysis/index.js';
import { isConclusive, testKey, type Verdict } from '../../src/model/index.js';
import { confirmedDrifts, suspectedDrifts } from '../../src/checks/index.js';
import { sessionDraws, simulateSession, type PoolModel, type SessionShape } from './sim-session.js';

export interface DriftOutcome {
  /** Per test (the pool's order): the first release (1 = the first after the base) flagged as a confirmed drift. */
  driftAt: Array<number | undefined>;
  /** Per test: the first release flagged at all, by a regression of its own check or by a confirmed drift. */
  flaggedAt: Array<number | undefined>;
}

/** `releases` releases, release r at (1 - lossPerRelease)^r of the base in every test. */
export function simulateSeries(
  model: PoolModel,
  shape: SessionShape,
  lossPerRelease: number,
  releases: number,
  threshold: number,
  confidence: number,
  random: () => number,
): DriftOutcome {
  const level = (r: number): number => r * Math.log(1 - lossPerRelease);
  const names = model.keys.map((key) => {
    const [test, threads] = key.split('\u0000');
    return { test: test!, threads: Number(threads) };
  });
  const steps = new Map<string, ChainStep[]>(names.map((n) => [testKey(n), []]));
  const driftAt: Array<number | undefined> = names.map(() => undefined);
  const flaggedAt: Array<number | undefined> = names.map(() => undefined);
  const asVerdicts = (judged: readonly PairedJudgement[]): Verdict[] =>
    judged.map(
      (j, i) =>
        ({
          ...names[i]!,
          kind: j.kind,
          relativeQps: j.relativeQps,
          threshold,
          confidence,
          logSe: j.logSe,
          logSeDf: j.logSeDf,
        }) as unknown as Verdict,
    );
  const record = (release: number, baseline: number, judged: readonly PairedJudgement[]): void =>
    judged.forEach((j, i) =>
      steps.get(testKey(names[i]!))!.push({
        release: `r${release}`,
        baseline: `r${baseline}`,
        logEstimate: Math.log(j.relativeQps),
        logSe: j.logSe,
        df: Math.max(1, j.logSeDf),
      }),
    );
  // Each session its own draws, from the series' stream.
  const draws = () => sessionDraws(model, Math.floor(random() * 2 ** 32), 0);
  let lastGood = 0;
  for (let r = 1; r <= releases; r++) {
    const drops = names.map(() => 1 - Math.exp(level(r) - level(lastGood)));
    const check = simulateSession(model, shape, drops, draws());
    record(r, lastGood, check);
    check.forEach((j, i) => {
      if (j.kind === 'regression') flaggedAt[i] ??= r;
    });
    const suspected = suspectedDrifts(`r${r}`, 'r0', steps, asVerdicts(check));
    if (suspected.length > 0) {
      const direct = simulateSession(
        model,
        shape,
        names.map(() => 1 - Math.exp(level(r))),
        draws(),
      );
      record(r, 0, direct);
      const confirmed = new Set(confirmedDrifts(asVerdicts(direct)).map((v) => testKey(v)));
      for (const s of suspected) {
        const i = names.findIndex((n) => testKey(n) === testKey(s));
        if (confirmed.has(testKey(s))) {
          driftAt[i] ??= r;
          flaggedAt[i] ??= r;
        }
      }
    }
    if (isConclusive(check.map((j) => j.kind))) lastGood = r;
  }
  return { driftAt, flaggedAt };
}
