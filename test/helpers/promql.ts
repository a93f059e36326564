import { relative } from 'node:path';
import {
  allPanels,
  annotationQueries,
  dashboardFiles,
  readDashboard,
  readRules,
  rulesFile,
  variableQuery,
} from './grafana.js';
import { projectRoot } from './paths.js';

/**
 * The PromQL of the provisioned dashboards and alert rules, ready for a real Prometheus (the end-to-end test
 * evaluates each one through the HTTP API) or for `promtool check rules` (each as a recording rule).
 *
 * Dashboards hold Grafana template variables, which are not PromQL. They are substituted so every expression
 * stays valid PromQL and matches whatever the server holds:
 * - `$name`, `${name}` and `${name:format}` of the dashboard's own variables (series, host, test, threads,
 *   instance) become `.*`, what Grafana sends for "All". They may appear only inside a regex matcher value
 *   (`label=~"..."`), where `.*` is a valid regex; a variable anywhere else throws, so a dashboard cannot use one
 *   where no single value fits. Pass `variables` to pin a variable to a regex instead (e.g. series: 'mariadb-10\\.11').
 * - Grafana's interval variables become fixed durations: `$__rate_interval` 2m (four scrapes at 30s),
 *   `$__interval` 30s, `$__range` 1h. Pass `intervals` to change them (e.g. shorter for a fast scrape in a test).
 */
export interface SubstitutionOptions {
  variables?: Record<string, string>;
  intervals?: Partial<Record<'__rate_interval' | '__interval' | '__range', string>>;
}

/** `panel` names the panel for messages ("title (id N)"); `title` is the panel's title alone. */
export interface DashboardExpression {
  file: string;
  panel: string;
  title: string;
  refId: string;
  expr: string;
}
export interface VariableExpression {
  file: string;
  variable: string;
  expr: string;
}
/** `annotation` is the annotation query's name (what Grafana's toggle above the panels shows). */
export interface AnnotationExpression {
  file: string;
  annotation: string;
  expr: string;
}
export interface RuleExpression {
  file: string;
  alert: string;
  expr: string;
}

const DEFAULT_INTERVALS = { __rate_interval: '2m', __interval: '30s', __range: '1h' } as const;

/** Thrown when a template variable sits where no regex-friendly value keeps the PromQL valid. */
export class TemplateVariableError extends Error {
  constructor(
    readonly expr: string,
    readonly variable: string,
  ) {
    super(
      `template variable ${variable} outside a regex matcher (label=~"...") in: ${expr}; use it only as label=~"$name"`,
    );
    this.name = 'TemplateVariableError';
  }
}

const VARIABLE = /\$\{(\w+)(?::\w+)?\}|\$(\w+)/g;

/** The expression with Grafana's variables replaced as described on SubstitutionOptions. */
export function substituteVariables(expr: string, options: SubstitutionOptions = {}): string {
  const intervals: Record<string, string> = { ...DEFAULT_INTERVALS, ...options.intervals };
  const variables = options.variables ?? {};
  const withIntervals = expr.replace(
    VARIABLE,
    (whole, braced?: string, bare?: string) => intervals[(braced ?? bare)!] ?? whole,
  );
  const inMatchers = withIntervals.replace(/(=~\s*")((?:[^"\\]|\\.)*)"/g, (_m, head: string, value: string) => {
    const substituted = value.replace(
      VARIABLE,
      (_v, braced?: string, bare?: string) => variables[(braced ?? bare)!] ?? '.*',
    );
    return `${head}${substituted}"`;
  });
  const left = inMatchers.match(/\$\{?\w+/);
  if (left) throw new TemplateVariableError(expr, left[0]);
  return inMatchers;
}

function projectPath(path: string): string {
  return relative(projectRoot, path);
}

/** Every query of every panel of every dashboard, variables substituted. */
export function dashboardExpressions(options: SubstitutionOptions = {}): DashboardExpression[] {
  return dashboardFiles().flatMap((file) => {
    const { dashboard } = readDashboard(file);
    return allPanels(dashboard).flatMap((panel) =>
      (panel.targets ?? []).flatMap((t) =>
        t.expr === undefined
          ? []
          : [
              {
                file: `grafana/dashboards/${file}`,
                panel: `${panel.title} (id ${panel.id})`,
                title: panel.title,
                refId: t.refId,
                expr: substituteVariables(t.expr, options),
              },
            ],
      ),
    );
  });
}

/**
 * Every Prometheus annotation query of every dashboard, variables substituted. Grafana runs them as range queries
 * (the step is `$__interval`), and marks each step whose sample is over 0.
 */
export function annotationExpressions(options: SubstitutionOptions = {}): AnnotationExpression[] {
  return dashboardFiles().flatMap((file) =>
    annotationQueries(readDashboard(file).dashboard).flatMap((a) =>
      a.target === undefined
        ? []
        : [
            {
              file: `grafana/dashboards/${file}`,
              annotation: a.name,
              expr: substituteVariables(a.target.expr, options),
            },
          ],
    ),
  );
}

/**
 * The series selector of every label_values(selector, label) variable query, substituted like the panels' queries:
 * a valid instant query that must return series for the variable to offer any value.
 */
export function variableExpressions(options: SubstitutionOptions = {}): VariableExpression[] {
  return dashboardFiles().flatMap((file) =>
    readDashboard(file).dashboard.templating.list.flatMap((v) => {
      const query = variableQuery(v);
      const selector = query === undefined ? undefined : /^label_values\((.+),\s*\w+\)$/.exec(query)?.[1];
      return selector === undefined
        ? []
        : [{ file: `grafana/dashboards/${file}`, variable: v.name, expr: substituteVariables(selector, options) }];
    }),
  );
}

/** Every rule of the alert rule file; `alert` is the alert name (or the record name of a recording rule). */
export function ruleExpressions(path: string = rulesFile): RuleExpression[] {
  return readRules(path).map((r) => ({ file: projectPath(path), alert: r.alert ?? r.record ?? '', expr: r.expr }));
}

const NOT_METRICS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
  'inf',
  'nan',
  'atan2',
]);

/**
 * The metric names an expression selects, found by regex rather than by a PromQL parser: strings, label matchers,
 * ranges and label lists (by, on, group_left ...) are blanked first, then every remaining identifier that is not a
 * function call, aggregation, keyword or number is a metric name. `{__name__="x"}` selectors count too.
 */
export function metricNames(expr: string): string[] {
  const byName = [...expr.matchAll(/__name__\s*=\s*"([\w:]+)"/g)].map((m) => m[1]!);
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, '{}')
    .replace(/\[[^\]]*\]/g, '[]')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/gi, '$1()')
    // `sum by (l) (x)`: the aggregation's name is followed by its clause, not by its parenthesis.
    .replace(/\b([a-z_]+)\s+(?:by|without)\s*\(\)\s*\(/gi, '$1(');
  const idents = [...bare.matchAll(/(?<![\w.:])([a-zA-Z_:][\w:]*)(?![\w:]|\s*\()/g)].map((m) => m[1]!);
  return [...new Set([...byName, ...idents.filter((n) => !NOT_METRICS.has(n.toLowerCase()))])].sort();
}
