import type { SampleRole } from '../model/index.js';
import { readGlobalVariables, type StatusConnection } from '../sampling/index.js';
import type { ServerVariables, SessionSideStore } from '../store/index.js';
import type { TargetInstance } from './target-instance.js';

/**
 * Each side's variables are kept once per session, after its first start: every later start runs the same my.cnf and
 * binary. Paths of the session's own folders and the listening port are written as placeholders, since they differ
 * between the sides by construction and say nothing about the release or the profile.
 */
export async function keepServerVariables(
  instance: TargetInstance,
  role: SampleRole,
  status: StatusConnection,
  ctx: { store: Pick<SessionSideStore, 'recordServerVariables'>; sessionId: number },
): Promise<void> {
  if (instance.variablesKept) return;
  const variables = instanceNeutral(await readGlobalVariables(status), instance);
  await ctx.store.recordServerVariables(ctx.sessionId, role, variables);
  instance.variablesKept = true;
}

/** Placeholders for where this instance runs: its folder, its socket, its install folder (basedir), its port. */
export function instanceNeutral(
  variables: ServerVariables,
  instance: Pick<TargetInstance, 'dir' | 'paths'>,
): ServerVariables {
  const basedir = variables['basedir']?.replace(/\/+$/, '') ?? '';
  const places: Array<[string, string]> = [
    [instance.paths.socket, '<socket>'],
    [instance.dir, '<instance>'],
    // A basedir of / would turn every path into a placeholder.
    ...(basedir.length > 1 ? [[basedir, '<basedir>'] as [string, string]] : []),
  ];
  const neutral: ServerVariables = {};
  for (const [name, value] of Object.entries(variables)) {
    neutral[name] = name === 'port' ? '<port>' : places.reduce((v, [path, mark]) => v.split(path).join(mark), value);
  }
  return neutral;
}
