import { createRequire } from 'node:module';

const requireLazily = createRequire(import.meta.url);

/**
 * nodemailer, loaded at the first message rather than at start: a daemon sends mail rarely, and an idle daemon should
 * not carry the library in memory (about 3 MB of its resident set).
 */
export function nodemailer(): typeof import('nodemailer') {
  return requireLazily('nodemailer') as typeof import('nodemailer');
}
