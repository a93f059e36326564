/**
 * The median of a non-empty list; the mean of the two middle values for an even count. NaN values (a figure a sample
 * lacks: stored before the figure existed) are left out; NaN when every value is.
 */
export function median(values: readonly number[]): number {
  return medianOfLists([values]);
}

/** Reused by every median (they never run inside one another): /metrics takes thousands in a row. */
let scratch = new Float64Array(1024);

/**
 * The median of several lists taken as one, without joining them first. A typed array sorts numbers natively, with
 * no comparator call per step, and the one scratch array leaves no garbage behind: a cold /metrics scrape takes
 * thousands of medians over a hundred thousand samples.
 */
export function medianOfLists(lists: ReadonlyArray<ArrayLike<number>>): number {
  let length = 0;
  for (const list of lists) length += list.length;
  if (length === 0) throw new RangeError('median of an empty list');
  if (scratch.length < length) scratch = new Float64Array(Math.max(length, scratch.length * 2));
  let at = 0;
  for (const list of lists) for (let i = 0; i < list.length; i++) scratch[at++] = list[i]!;
  // A typed array's sort puts NaN last: the values are the first `count`.
  const sorted = scratch.subarray(0, length).sort();
  let count = length;
  while (count > 0 && Number.isNaN(sorted[count - 1]!)) count--;
  if (count === 0) return Number.NaN;
  const mid = Math.floor(count / 2);
  return count % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
