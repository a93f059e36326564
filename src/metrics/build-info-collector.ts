import { Gauge, type Registry } from 'prom-client';
import type { BuildInfo } from './source.js';

const LABELS = ['version', 'node_version'] as const;

/** Always 1; the labels say what runs (the usual *_build_info pattern), so a dashboard can show it and join on it. */
export function registerBuildInfoCollector(registry: Registry, build: BuildInfo): void {
  new Gauge<(typeof LABELS)[number]>({
    name: 'qpswatch_build_info',
    help: "1, labelled with qpswatch's version and the Node.js version it runs on.",
    labelNames: LABELS,
    registers: [registry],
  }).set({ version: build.version, node_version: process.version }, 1);
}
