import {
  figureOf,
  isMemorySetting,
  mapFigures,
  sessionDesigns,
  testKey,
  type ComparisonView,
  type SampleRole,
  type SessionLevel,
  type SessionDesignName,
  type SidePerOp,
  type SideSummary,
  type TargetLabel,
  type TestId,
  type TestRow,
  type Verdict,
} from '../model/index.js';
import type { SampleRecord, SessionRecord, TargetRef } from '../store/index.js';
import { z } from 'zod';
import { median } from './median.js';
import { samplesOfFirstPairs } from './verdict-samples.js';

/** Samples of one test at one thread count, split by side. */
interface TestSamples extends TestId {
  baseline: SampleRecord[];
  candidate: SampleRecord[];
}

/**
 * Builds the comparison of one finished session: per test, the median of each side and relative QPS = median(C) /
 * median(B), or the verdict's estimate when the test was judged; per-op figures are medians too, so one odd round
 * moves nothing. Tests keep the order they ran in.
 */
export function compareSession(
  session: SessionRecord,
  samples: readonly SampleRecord[],
  host: Record<string, string | number | boolean>,
  verdicts: readonly Verdict[] = [],
): ComparisonView {
  const tests = groupByTest(samples)
    .filter((t) => t.baseline.length > 0 && t.candidate.length > 0)
    .map((group) => {
      const verdict = verdicts.find((v) => v.test === group.test && v.threads === group.threads);
      return withVerdict(toRow(behindVerdict(group, verdict)), verdict);
    });
  return {
    sessionId: session.id,
    suite: session.suite,
    rounds: session.rounds,
    ...(designOf(session) !== undefined ? { design: designOf(session)! } : {}),
    ...(isMemorySetting(session.settings['memory']) ? { memory: session.settings['memory'] } : {}),
    ...(levelsOf(session) !== undefined ? { levels: levelsOf(session)! } : {}),
    startedAt: session.startedAt,
    finishedAt: session.endedAt ?? '',
    baseline: label(session.baseline),
    candidate: label(session.candidate),
    host,
    tests,
  };
}

/**
 * The row takes the verdict's figures, its relative QPS included: for a paired session that is the geometric mean of
 * the pair ratios the verdict was decided on, not the ratio of medians.
 */
function withVerdict(row: TestRow, verdict: Verdict | undefined): TestRow {
  if (verdict === undefined) return row;
  const { test: _test, threads: _threads, relativeQps, ...rowVerdict } = verdict;
  return { ...row, relativeQps, verdict: rowVerdict };
}

const StoredLevels = z.array(
  z.object({
    threads: z.number().int().positive(),
    threadsSpec: z.union([z.number(), z.string()]),
    tables: z.number().int().positive(),
    tableSize: z.number().int().positive(),
  }),
);

/** The suite's levels as the session stored them (compare's storedLevels); undefined for a suite without levels. */
function levelsOf(session: SessionRecord): SessionLevel[] | undefined {
  const parsed = StoredLevels.safeParse(session.settings['levels']);
  return parsed.success
    ? parsed.data.map(({ threads, threadsSpec, tables, tableSize }) => ({ threads, threadsSpec, tables, tableSize }))
    : undefined;
}

/** The session's design as its settings recorded it (sessions before the paired design have none). */
function designOf(session: SessionRecord): SessionDesignName | undefined {
  const design = session.settings['design'];
  return sessionDesigns.find((d) => d === design);
}

function groupByTest(samples: readonly SampleRecord[]): TestSamples[] {
  const groups = new Map<string, TestSamples>();
  for (const sample of samples) {
    const key = testKey(sample);
    let group = groups.get(key);
    if (group === undefined) {
      group = { test: sample.test, threads: sample.threads, baseline: [], candidate: [] };
      groups.set(key, group);
    }
    group[sample.role satisfies SampleRole].push(sample);
  }
  return [...groups.values()];
}

/**
 * A judged test's figures come from the pairs its verdict was decided on (verdict-samples.ts), as its hint does: a
 * test decided at the first look and measured on while others stayed open shows the first look's pairs everywhere.
 */
function behindVerdict(group: TestSamples, verdict: Verdict | undefined): TestSamples {
  if (verdict === undefined) return group;
  const behind = samplesOfFirstPairs([...group.baseline, ...group.candidate], verdict.pairs);
  const baseline = behind.filter((s) => s.role === 'baseline');
  const candidate = behind.filter((s) => s.role === 'candidate');
  // A verdict of rounds without pairs (whole runs with a side missing a round) keeps every sample.
  return baseline.length > 0 && candidate.length > 0 ? { ...group, baseline, candidate } : group;
}

function toRow(group: TestSamples): TestRow {
  const baseline = side(group.baseline);
  const candidate = side(group.candidate);
  return { test: group.test, threads: group.threads, baseline, candidate, relativeQps: candidate.qps / baseline.qps };
}

function side(samples: readonly SampleRecord[]): SideSummary {
  const qps = samples.map((s) => s.qps);
  const of = (pick: (s: SampleRecord) => number): number => median(samples.map(pick));
  const perOp: SidePerOp = mapFigures((field) => of((s) => figureOf(s, field)));
  const hitRatio = bufferPoolHitRatio(samples);
  return {
    qps: median(qps),
    samples: samples.length,
    qpsMin: Math.min(...qps),
    qpsMax: Math.max(...qps),
    perOp,
    dbPerOp: dbCounterMedians(samples),
    ...(hitRatio !== undefined ? { hitRatio } : {}),
  };
}

/** 1 - pages read from disk / pages asked for, over every run of the side: a sum of deltas, so long runs weigh more. */
export function bufferPoolHitRatio(samples: readonly Pick<SampleRecord, 'dbCounters'>[]): number | undefined {
  const sum = (name: string): number => samples.reduce((total, s) => total + (s.dbCounters[name]?.delta ?? 0), 0);
  const requests = sum('Innodb_buffer_pool_read_requests');
  if (requests <= 0) return undefined;
  return Math.max(0, 1 - sum('Innodb_buffer_pool_reads') / requests);
}

/** Counters a version lacks are missing from some samples: the median is over the samples that have them. */
function dbCounterMedians(samples: readonly SampleRecord[]): Record<string, number> {
  const values = new Map<string, number[]>();
  for (const sample of samples) {
    for (const [name, counter] of Object.entries(sample.dbCounters)) {
      values.set(name, [...(values.get(name) ?? []), counter.perOp]);
    }
  }
  return Object.fromEntries(
    [...values.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, list]) => [name, median(list)]),
  );
}

function label(target: TargetRef): TargetLabel {
  const buildProfile = target.description['buildProfile'];
  return {
    name: target.name,
    flavor: target.flavor,
    version: target.version,
    serverProfile: target.serverProfile,
    ...(typeof buildProfile === 'string' ? { buildProfile } : {}),
  };
}
