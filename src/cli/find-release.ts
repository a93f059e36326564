import { discoverAll } from '../releases/index.js';
import type { ReleaseRecord, ReleaseStore } from '../store/index.js';
import type { CommandContext } from './command.js';
import { UsageError } from './usage-error.js';

/**
 * The release a person named by its tag, in one of the configured upstreams (or the one given). With `discover`,
 * an unknown tag is looked up by running discovery first; without, it is an error that says how to find the tags.
 */
export async function findRelease(
  tag: string,
  upstreamName: string | undefined,
  store: ReleaseStore,
  ctx: CommandContext,
  discover: boolean,
): Promise<ReleaseRecord> {
  const upstreams = ctx.upstreams.filter((u) => upstreamName === undefined || u.name === upstreamName);
  if (upstreams.length === 0) {
    throw new UsageError(
      upstreamName === undefined
        ? 'the config has no upstreams: add one under upstreams:'
        : `--upstream ${JSON.stringify(upstreamName)}: no such upstream; use one ` +
            `of ` +
            `${ctx.upstreams.map((u) => u.name).join(', ') || '(none configured)'}`,
    );
  }
  const matching = async (): Promise<ReleaseRecord[]> =>
    (await store.findReleasesByTag(tag)).filter((r) => upstreams.some((u) => u.name === r.upstream));
  let found = await matching();
  if (found.length === 0 && discover) {
    await discoverAll(upstreams, store, ctx.log, ctx.signal);
    found = await matching();
  }
  if (found.length === 0) {
    throw new UsageError(
      `tag ${JSON.stringify(tag)} is not a known release of ` +
        `${upstreams.map((u) => u.name).join(', ')}: run \`qpswatch discover\` ` +
        `to list them`,
    );
  }
  if (found.length > 1)
    throw new UsageError(
      `tag ${JSON.stringify(tag)} is a release of several upstreams ` +
        `(${found.map((r) => r.upstream).join(', ')}): name one with --upstream`,
    );
  return found[0]!;
}
