import type { FoldedStack } from '../model/index.js';
import { htmlText } from './html-escape.js';

interface FlameNode {
  name: string;
  candidate: number;
  baseline: number;
  children: Map<string, FlameNode>;
}

export interface FlameGraphInput {
  title: string;
  baseline: readonly FoldedStack[];
  candidate: readonly FoldedStack[];
}

const WIDTH = 1200;
const FRAME_HEIGHT = 16;
const TOP = 36;
const CHAR_WIDTH = 7;

function node(name: string): FlameNode {
  return { name, candidate: 0, baseline: 0, children: new Map() };
}

/** One tree of both profiles by call path, root first: each node counts the samples of each side that passed it. */
function mergeTree(input: FlameGraphInput): FlameNode {
  const root = node('all');
  const add = (stacks: readonly FoldedStack[], side: 'candidate' | 'baseline'): void => {
    for (const { stack, count } of stacks) {
      let at = root;
      at[side] += count;
      for (const frame of stack.split(';')) {
        let child = at.children.get(frame);
        if (child === undefined) at.children.set(frame, (child = node(frame)));
        child[side] += count;
        at = child;
      }
    }
  };
  add(input.candidate, 'candidate');
  add(input.baseline, 'baseline');
  return root;
}

/** Red for a path whose share of the samples grew from B to C, blue for one that shrank; pale when it barely moved. */
export function growthColour(growth: number, largest: number): string {
  const t = largest > 0 ? Math.min(1, Math.abs(growth) / largest) : 0;
  const fade = Math.round(235 - 175 * t);
  return growth >= 0 ? `rgb(250,${fade},${fade})` : `rgb(${fade},${fade},250)`;
}

interface Frame {
  node: FlameNode;
  x: number;
  depth: number;
  width: number;
  growth: number;
}

/** Each frame's place: widths from the candidate's samples, the root at the bottom, children left to right by name. */
function layout(root: FlameNode): Frame[] {
  const frames: Frame[] = [];
  const share = (n: FlameNode, side: 'candidate' | 'baseline'): number => (root[side] > 0 ? n[side] / root[side] : 0);
  const place = (n: FlameNode, x: number, depth: number): void => {
    const width = (n.candidate / root.candidate) * WIDTH;
    if (width < 0.3) return;
    frames.push({ node: n, x, depth, width, growth: share(n, 'candidate') - share(n, 'baseline') });
    let next = x;
    for (const child of [...n.children.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      place(child, next, depth + 1);
      next += (child.candidate / root.candidate) * WIDTH;
    }
  };
  if (root.candidate > 0) place(root, 0, 0);
  return frames;
}

const percent = (share: number): string => `${(share * 100).toFixed(1)}%`;

function frameSvg(f: Frame, top: number, largest: number, root: FlameNode): string {
  const y = top - f.depth * FRAME_HEIGHT;
  const c = f.node.candidate / root.candidate;
  const b = root.baseline > 0 ? f.node.baseline / root.baseline : 0;
  const sign = f.growth >= 0 ? '+' : '';
  const tip = `${f.node.name}: C ${percent(c)}, B ${percent(b)} (${sign}${(f.growth * 100).toFixed(1)} points)`;
  const fits = Math.floor((f.width - 6) / CHAR_WIDTH);
  const label = fits < 3 ? '' : f.node.name.length <= fits ? f.node.name : `${f.node.name.slice(0, fits - 2)}..`;
  return (
    `<g><title>${htmlText(tip)}</title>` +
    `<rect x="${f.x.toFixed(1)}" y="${y}" width="${f.width.toFixed(1)}" height="${FRAME_HEIGHT - 1}" ` +
    `fill="${growthColour(f.growth, largest)}" rx="2"/>` +
    (label !== '' ? `<text x="${(f.x + 3).toFixed(1)}" y="${y + 11}">${htmlText(label)}</text>` : '') +
    '</g>'
  );
}

/**
 * A differential flame graph as a self-contained SVG: frame widths are the candidate's samples, colours the change
 * of each call path's share from the baseline (red grew, blue shrank), and every frame's tooltip gives both shares.
 * Frame names are symbol names, escaped as data; the SVG holds no script.
 */
export function renderFlameGraphSvg(input: FlameGraphInput): string {
  const root = mergeTree(input);
  const frames = layout(root);
  const depth = frames.reduce((max, f) => Math.max(max, f.depth), 0);
  const height = TOP + (depth + 1) * FRAME_HEIGHT + 8;
  const top = height - 8 - FRAME_HEIGHT;
  const largest = frames.reduce((max, f) => Math.max(max, Math.abs(f.growth)), 0);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" ` +
      'font-family="monospace" font-size="11">',
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="${WIDTH / 2}" y="18" text-anchor="middle" font-size="14">${htmlText(input.title)}</text>`,
    `<text x="${WIDTH / 2}" y="31" text-anchor="middle" fill="#555">` +
      'width: candidate samples; red: share grew from baseline, blue: shrank</text>',
    ...frames.map((f) => frameSvg(f, top, largest, root)),
    '</svg>',
    '',
  ].join('\n');
}
