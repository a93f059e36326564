import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser, type ParsedMail } from 'mailparser';

/** The compiled fixture sits beside this helper's compiled file, whatever the output folder. */
const SINK = fileURLToPath(new URL('../fixtures/notify/smtp-sink.js', import.meta.url));
const TRICKLE = fileURLToPath(new URL('../fixtures/notify/smtp-trickle.js', import.meta.url));

export interface ReceivedMail {
  file: string;
  /** what the client said in MAIL FROM and RCPT TO, and the user it logged in as (null: no AUTH) */
  envelope: { from: string; to: string[]; user: string | null };
  raw: string;
  parsed: ParsedMail;
}

export interface SmtpSink {
  readonly port: number;
  /** where each received message is saved raw */
  readonly folder: string;
  received(): Promise<ReceivedMail[]>;
  /** every byte clients have sent so far, as the server read it off the socket ('' when none) */
  wire(): Promise<string>;
  /** Stops the server and waits for it to exit; idempotent. The folder stays (it may be reused by a later sink). */
  close(): Promise<void>;
}

/** A TCP port nothing listens on right now (the kernel's pick, released at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port from the kernel');
  return address.port;
}

/** A folder for received messages; the caller removes it (removeFolder) when done. */
export function makeMailFolder(): Promise<string> {
  return mkdtemp(join('/tmp', 'qpsw-smtp-'));
}

export async function removeFolder(folder: string): Promise<void> {
  await rm(folder, { recursive: true, force: true });
}

/** Starts the fixture SMTP server (test/fixtures/notify/smtp-sink.ts) on 127.0.0.1; port 0 picks a free one. */
export async function startSmtpSink(opts: { folder: string; port?: number; rejectAuth?: boolean }): Promise<SmtpSink> {
  const { port, close } = await startFixture(SINK, [
    String(opts.port ?? 0),
    opts.folder,
    ...(opts.rejectAuth === true ? ['reject-auth'] : []),
  ]);
  const wire = (): Promise<string> => readFile(join(opts.folder, 'wire.log'), 'latin1').catch(() => '');
  return { port, folder: opts.folder, received: () => readReceived(opts.folder), wire, close };
}

export interface TrickleServer {
  readonly port: number;
  /** Stops the server and waits for it to exit; idempotent. */
  close(): Promise<void>;
}

/** Starts the trickling SMTP server (test/fixtures/notify/smtp-trickle.ts): one byte every `intervalMs`. */
export function startTrickleServer(opts: { intervalMs: number }): Promise<TrickleServer> {
  return startFixture(TRICKLE, ['0', String(opts.intervalMs)]);
}

async function startFixture(script: string, args: string[]): Promise<{ port: number; close: () => Promise<void> }> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => (closing ??= stopChild(child, exited));
  try {
    return { port: await listeningPort(child), close };
  } catch (err) {
    await close();
    throw err;
  }
}

function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`smtp fixture did not start in 10 s: ${stderr}`)), 10_000);
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const line = stdout.split('\n')[0];
      if (!stdout.includes('\n') || line === undefined) return;
      clearTimeout(timer);
      resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`smtp fixture exited with ${String(code)} before listening: ${stderr}`));
    });
  });
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(killer);
}

/** Every message saved so far, in the order received, parsed with mailparser. */
export async function readReceived(folder: string): Promise<ReceivedMail[]> {
  const files = (await readdir(folder)).filter((name) => name.endsWith('.eml')).sort();
  return Promise.all(
    files.map(async (file) => {
      const raw = await readFile(join(folder, file), 'utf8');
      const envelope = JSON.parse(await readFile(join(folder, `${file}.json`), 'utf8')) as ReceivedMail['envelope'];
      return { file, envelope, raw, parsed: await simpleParser(raw) };
    }),
  );
}

/** Parses one RFC 822 file (an .eml written by the eml mailer). */
export async function parseMailFile(path: string): Promise<ParsedMail> {
  return simpleParser(await readFile(path));
}
