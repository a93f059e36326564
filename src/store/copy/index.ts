export {
  copyStore,
  DEFAULT_BATCH_ROWS,
  type StoreCopyParams,
  type StoreCopyReport,
  type TableCount,
} from './copy-store.js';
export { StoreCopyCountError, StoreCopyRefusedError } from './errors.js';
