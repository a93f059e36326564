import type { CacheSizes, WorkProgress } from '../model/index.js';

/** What the running daemon knows of its work in progress and of its cache, read from its memory (never a walk). */
export interface ProgressFigures {
  work: WorkProgress | null;
  /** The last figure measured in the background; null before the first. */
  cacheSizes: CacheSizes | null;
}

export type ProgressRead = () => ProgressFigures;

export const NO_PROGRESS: ProgressFigures = { work: null, cacheSizes: null };
