import { InputError } from '../../errors.js';
import { StoreError } from '../errors.js';

/**
 * The copy will not run: the source or the target is not one it may copy (schemas apart, rows that differ for one
 * key, a column the target lacks). Found before anything is written, so the target is as it was.
 */
export class StoreCopyRefusedError extends InputError {
  constructor(
    readonly table: string | undefined,
    readonly reason: string,
  ) {
    super(`store copy refused${table === undefined ? '' : ` (table ${table})`}: ${reason}; nothing was changed`);
  }
}

/** After the copy, a table of the target does not hold the rows it should: something else wrote to it meanwhile. */
export class StoreCopyCountError extends StoreError {
  override name = 'StoreCopyCountError';
  constructor(
    readonly table: string,
    readonly expected: number,
    readonly found: number,
  ) {
    super(
      `store copy: table ${table} of the target holds ${found} rows after the copy, not ${expected}; stop whatever ` +
        'else writes to the target (a daemon) and run the copy again (rows already copied are skipped)',
    );
  }
}
