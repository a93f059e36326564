/** One line for the person running the script: the time of day, then the text. */
export type Say = (line: string) => void;

export function sayOn(write: (text: string) => void, now: () => Date = () => new Date()): Say {
  return (line) => write(`${now().toISOString().slice(11, 19)} ${line}\n`);
}

/** How far a long step is: what is done of how much, in a unit people read ("MB"). */
export interface Progress {
  readonly done: number;
  readonly total: number;
  readonly unit: string;
}

/**
 * Every `everyMs` while a long step runs: how far it is and, from its rate since the start, about how long is left.
 * Returns the function that stops it.
 */
export function ticker(say: Say, label: string, everyMs: number, probe: () => Promise<Progress>): () => void {
  const started = Date.now();
  const timer = setInterval(() => {
    probe().then(
      (p) => say(`${label}: ${progressLine(p, Date.now() - started)}`),
      () => undefined,
    );
  }, everyMs);
  return () => clearInterval(timer);
}

export function progressLine(p: Progress, elapsedMs: number): string {
  const share = p.total > 0 ? p.done / p.total : 0;
  const percent = `${Math.floor(share * 100)}%`;
  const left = share > 0.02 && share < 1 ? (elapsedMs * (1 - share)) / share : undefined;
  const eta = left !== undefined ? `, about ${minutes(left)} left` : '';
  return `${p.done.toFixed(1)} of ${p.total.toFixed(1)} ${p.unit} (${percent})${eta}`;
}

export function minutes(ms: number): string {
  const m = ms / 60_000;
  return m < 1 ? `${Math.max(1, Math.round(ms / 1000))} s` : `${m.toFixed(m < 10 ? 1 : 0)} min`;
}
