import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { projectRoot } from './paths.js';

/** The folders of the provisioned dashboards and of the Prometheus files, in the source tree. */
export const dashboardsDir = join(projectRoot, 'grafana', 'dashboards');
export const prometheusDir = join(projectRoot, 'grafana', 'prometheus');
export const rulesFile = join(prometheusDir, 'qpswatch.rules.yml');

const DatasourceRef = z.looseObject({ type: z.string(), uid: z.string() });

const Target = z.looseObject({
  refId: z.string(),
  expr: z.string().optional(),
  format: z.string().optional(),
  datasource: DatasourceRef.optional(),
});

const panelFields = {
  id: z.number().int(),
  type: z.string(),
  title: z.string(),
  datasource: DatasourceRef.optional(),
  targets: z.array(Target).optional(),
  repeat: z.string().optional(),
  transformations: z.array(z.looseObject({ id: z.string(), options: z.unknown() })).optional(),
};
const LeafPanel = z.looseObject(panelFields);
/** Rows hold their panels in `panels` when collapsed; rows never nest. */
const Panel = z.looseObject({ ...panelFields, panels: z.array(LeafPanel).optional() });

const Variable = z.looseObject({
  name: z.string(),
  type: z.string(),
  query: z.union([z.string(), z.looseObject({ query: z.string() })]).optional(),
  datasource: DatasourceRef.optional(),
});

/**
 * A dashboard's annotation query: Grafana 10 and 11 read a Prometheus one's PromQL from `target.expr` (an older
 * dashboard's top-level `expr` is moved there when it loads), and take its title, text and tags from the result's
 * labels.
 */
const Annotation = z.looseObject({
  name: z.string(),
  datasource: DatasourceRef.optional(),
  target: z.looseObject({ refId: z.string(), expr: z.string(), datasource: DatasourceRef.optional() }).optional(),
  titleFormat: z.string().optional(),
  textFormat: z.string().optional(),
  tagKeys: z.string().optional(),
});

const Dashboard = z.looseObject({
  uid: z.string(),
  title: z.string(),
  schemaVersion: z.number().int(),
  panels: z.array(Panel),
  templating: z.looseObject({ list: z.array(Variable) }),
  annotations: z.looseObject({ list: z.array(Annotation) }).optional(),
});

export type GrafanaDashboard = z.infer<typeof Dashboard>;
export type GrafanaPanel = z.infer<typeof LeafPanel>;
export type GrafanaVariable = z.infer<typeof Variable>;
export type GrafanaAnnotation = z.infer<typeof Annotation>;

/** The dashboard JSON files, sorted by name (file names only). */
export function dashboardFiles(): string[] {
  return readdirSync(dashboardsDir)
    .filter((f) => f.endsWith('.json'))
    .sort();
}

/** One dashboard file, parsed and checked against the small part of Grafana's model the tests rely on. */
export function readDashboard(file: string): { raw: Record<string, unknown>; dashboard: GrafanaDashboard } {
  const raw = JSON.parse(readFileSync(join(dashboardsDir, file), 'utf8')) as Record<string, unknown>;
  const parsed = Dashboard.safeParse(raw);
  if (!parsed.success) throw new Error(`grafana/dashboards/${file}: ${z.prettifyError(parsed.error)}`);
  return { raw, dashboard: parsed.data };
}

/** Every panel of a dashboard, rows and the panels inside collapsed rows included, in file order. */
export function allPanels(dashboard: GrafanaDashboard): GrafanaPanel[] {
  return dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
}

/** The annotation queries of a dashboard, in file order. */
export function annotationQueries(dashboard: GrafanaDashboard): GrafanaAnnotation[] {
  return dashboard.annotations?.list ?? [];
}

/** The PromQL query of a template variable; label_values(selector, label) gives its selector. */
export function variableQuery(variable: GrafanaVariable): string | undefined {
  if (variable.type !== 'query' || variable.query === undefined) return undefined;
  return typeof variable.query === 'string' ? variable.query : variable.query.query;
}

const Rule = z.looseObject({ alert: z.string().optional(), record: z.string().optional(), expr: z.string() });
const RuleFile = z.looseObject({ groups: z.array(z.looseObject({ name: z.string(), rules: z.array(Rule) })) });
export type PrometheusRule = z.infer<typeof Rule>;

/** The rules of a Prometheus rule file, in file order. */
export function readRules(path: string = rulesFile): PrometheusRule[] {
  const parsed = RuleFile.safeParse(parseYaml(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new Error(`${path}: ${z.prettifyError(parsed.error)}`);
  return parsed.data.groups.flatMap((g) => g.rules);
}
