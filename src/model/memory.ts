/**
 * The memory settings a session can run a suite under, as the reference studies run every configuration twice:
 * io-bound (the data several times the buffer pool, O_DIRECT so the OS page cache does not hide the reads) and
 * cached (the tables read into a pool that holds them before the tests). A session without one runs the server
 * profile as it is.
 */
export const memorySettings = ['cached', 'io-bound'] as const;
export type MemorySettingName = (typeof memorySettings)[number];

export function isMemorySetting(text: unknown): text is MemorySettingName {
  return typeof text === 'string' && (memorySettings as readonly string[]).includes(text);
}
