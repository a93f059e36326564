/**
 * callgrind's output file (valgrind's "Callgrind Format Specification"), read for one event, Ir: the instructions
 * executed. Name compression ("fn=(12) name" defines 12, "fn=(12)" uses it), relative positions (+3, -2, *) and
 * `calls=` lines, each followed by the one cost line of the call, are handled; jump lines are skipped.
 */
import { z } from 'zod';

const count = z.number().int().nonnegative();

/** One function of a callgrind profile: instructions in its own code, and with what it called. */
export const CountedFunctionSchema = z.strictObject({
  /** As callgrind names it (demangled); a stripped binary's unnamed code reads 0x000... */
  name: z.string().min(1),
  /** The file of the binary or library it is in (ob=), its base name. */
  object: z.string(),
  /** Exclusive: instructions executed in the function's own code. */
  self: count,
  /** Inclusive: its own and those of every call it made, a call to itself left out so recursion counts once. */
  inclusive: count,
});
export type CountedFunction = z.infer<typeof CountedFunctionSchema>;

/** What a callgrind output file says, as the lane reads it. */
export const CallgrindProfileSchema = z.strictObject({
  /** Every instruction the profile counted (the sum of every function's own, callgrind's `totals:`). */
  instructions: count,
  functions: z.array(CountedFunctionSchema),
});
export type CallgrindProfile = z.infer<typeof CallgrindProfileSchema>;

/** The file is not callgrind's, or a line of it could not be read. */
export class CallgrindOutputError extends Error {
  constructor(readonly reason: string) {
    super(`callgrind output: ${reason}`);
    this.name = new.target.name;
  }
}

/** What the parser knows at a line: the current object and function, and the call whose cost line comes next. */
interface ParseState {
  names: Map<string, string>;
  object: string;
  fn: string | undefined;
  callObject: string | undefined;
  callee: string | undefined;
  /** Set by calls=: the next cost line is that call's inclusive cost. */
  inCall: boolean;
  /** The column of Ir in a cost line: how many position columns come first. */
  positions: number;
  irColumn: number;
}

const SPEC = /^(ob|fl|fi|fe|fn|cob|cfi|cfl|cfn|jfi|jfn)=(?:\((\d+)\))?\s*(.*)$/;

/** Parses a whole callgrind output file; throws CallgrindOutputError when it is not one or has no Ir event. */
export function parseCallgrindOutput(text: string): CallgrindProfile {
  if (!/^(# callgrind format|version:|creator: callgrind)/m.test(text.slice(0, 512)))
    throw new CallgrindOutputError('not a callgrind output file (no "# callgrind format" header)');
  const state: ParseState = {
    names: new Map(),
    object: '',
    fn: undefined,
    callObject: undefined,
    callee: undefined,
    inCall: false,
    positions: 1,
    irColumn: -1,
  };
  const table = new FunctionTable();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '' || line.startsWith('#')) continue;
    try {
      readLine(line, state, table);
    } catch (err) {
      throw new CallgrindOutputError(`line ${i + 1} (${JSON.stringify(line.slice(0, 80))}): ${(err as Error).message}`);
    }
  }
  if (state.irColumn < 0) throw new CallgrindOutputError('no "events:" line naming Ir');
  const parsed = CallgrindProfileSchema.safeParse(table.profile());
  // Counts add up past 2^53 only in a profile no run of the lane makes: said, not rounded.
  if (!parsed.success) throw new CallgrindOutputError(`the counts do not add up: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

function readLine(line: string, state: ParseState, table: FunctionTable): void {
  const first = line.charCodeAt(0);
  // Cost lines start with a position: a digit, +, -, * (or 0x for instruction positions).
  if ((first >= 48 && first <= 57) || line[0] === '+' || line[0] === '-' || line[0] === '*') {
    costLine(line, state, table);
    return;
  }
  if (line.startsWith('calls=')) {
    if (state.callee === undefined) throw new Error('calls= before any cfn=');
    state.inCall = true;
    return;
  }
  if (line.startsWith('jump=') || line.startsWith('jcnd=')) return;
  const spec = SPEC.exec(line);
  if (spec !== null) {
    specLine(spec[1]!, spec[2], spec[3]!, state);
    return;
  }
  header(line, state);
}

function specLine(kind: string, id: string | undefined, rest: string, state: ParseState): void {
  // Names of objects, files and functions have separate id spaces: ob/cob share one, fn/cfn/jfn one, the files one.
  // Jump lines (jfi, jfn) are read only for the names they define.
  const space =
    kind === 'ob' || kind === 'cob' ? 'ob' : kind === 'fn' || kind === 'cfn' || kind === 'jfn' ? 'fn' : 'fl';
  const name = resolveName(space, id, rest, state.names);
  if (kind === 'ob') state.object = baseName(name);
  else if (kind === 'fn') state.fn = name;
  else if (kind === 'cob') state.callObject = baseName(name);
  else if (kind === 'cfn') state.callee = name;
}

function resolveName(space: string, id: string | undefined, rest: string, names: Map<string, string>): string {
  if (id === undefined) return rest;
  const key = `${space}:${id}`;
  if (rest !== '') {
    names.set(key, rest);
    return rest;
  }
  const known = names.get(key);
  if (known === undefined) throw new Error(`(${id}) is used before it is named`);
  return known;
}

function header(line: string, state: ParseState): void {
  const colon = line.indexOf(':');
  if (colon < 0) throw new Error('neither a header, a position nor a cost line');
  const key = line.slice(0, colon);
  const value = line.slice(colon + 1).trim();
  if (key === 'positions') state.positions = value.split(/\s+/).length;
  if (key === 'events') {
    state.irColumn = value.split(/\s+/).indexOf('Ir');
    if (state.irColumn < 0) throw new Error('the "events:" line names no Ir (instructions executed)');
  }
}

function costLine(line: string, state: ParseState, table: FunctionTable): void {
  if (state.irColumn < 0) throw new Error('a cost line before the "events:" line');
  if (state.fn === undefined) throw new Error('a cost line before any fn=');
  const fields = line.split(' ');
  const field = fields[state.positions + state.irColumn];
  // A cost left out at the end of a line is 0.
  const cost = field === undefined || field === '' ? 0 : Number(field);
  if (!Number.isSafeInteger(cost) || cost < 0) throw new Error(`the cost ${JSON.stringify(field)} is not a count`);
  const caller = functionKey(state.object, state.fn);
  if (!state.inCall) {
    table.addSelf(caller, cost);
    return;
  }
  state.inCall = false;
  const callee = functionKey(state.callObject ?? state.object, state.callee!);
  state.callObject = undefined;
  table.addCall(caller, callee, cost);
}

interface FunctionKey {
  name: string;
  object: string;
}

/**
 * A function is known by its name, as callgrind_annotate knows it (callgrind gives one name one id, whatever its
 * object); its object is where its own code was first seen. callgrind names recursion levels fn'2, fn'3
 * (--separate-recs): they are the same function.
 */
function functionKey(object: string, fn: string): FunctionKey {
  return { name: fn.replace(/'\d+$/, ''), object };
}

function baseName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}

class FunctionTable {
  readonly #functions = new Map<string, CountedFunction>();

  addSelf(fn: FunctionKey, cost: number): void {
    const entry = this.#entry(fn);
    entry.self += cost;
    entry.inclusive += cost;
  }

  /** A call's inclusive cost counts in the caller's inclusive, unless it calls itself (already counted there). */
  addCall(caller: FunctionKey, callee: FunctionKey, cost: number): void {
    const entry = this.#entry(caller);
    this.#entry(callee);
    if (caller.name !== callee.name) entry.inclusive += cost;
  }

  profile(): CallgrindProfile {
    const functions = [...this.#functions.values()].sort((a, b) => b.inclusive - a.inclusive || b.self - a.self);
    return { instructions: functions.reduce((sum, f) => sum + f.self, 0), functions };
  }

  #entry(fn: FunctionKey): CountedFunction {
    let entry = this.#functions.get(fn.name);
    if (entry === undefined) {
      entry = { name: fn.name, object: fn.object, self: 0, inclusive: 0 };
      this.#functions.set(fn.name, entry);
    }
    return entry;
  }
}
