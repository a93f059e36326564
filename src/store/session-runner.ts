/** Which host ran a session: its settings name the runner (host_name), so a fleet's hosts recover only their own. */

export interface RunningRow {
  id: number;
  pid: number;
  pid_start_ticks: number | null;
  /** the session's settings, JSON */
  settings: string;
}

/** A session is this host's when it names this runner, or none (a store from before fleets is one host's). */
export function ranHere(settings: string, runner: string): boolean {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(settings) as Record<string, unknown>;
  } catch {
    return true;
  }
  return ranBy(parsed, runner);
}

/** ranHere of a session's settings as a record holds them. */
export function ranBy(settings: Readonly<Record<string, unknown>>, runner: string): boolean {
  const named = settings['runner'];
  return typeof named !== 'string' || named === runner;
}
