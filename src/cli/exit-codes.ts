/**
 * Exit codes of every command (documented in --help and the README):
 * 0 the work was done; 1 it failed on the way (a server, sysbench or the store); 2 bad input (usage, config, names).
 */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_BAD_INPUT = 2;
