// The Grafana dashboard's PromQL, and the metric names an expression reads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const DASHBOARD_PATH = join(__dirname, '..', '..', '..', 'deploy', 'grafana', 'gateway-dashboard.json');

interface Panel {
  title: string;
  type: string;
  targets?: { expr: string }[];
  panels?: Panel[];
}

export interface PanelQuery {
  panel: string;
  expr: string;
}

export function dashboardQueries(): PanelQuery[] {
  const dashboard = JSON.parse(readFileSync(DASHBOARD_PATH, 'utf8')) as { panels: Panel[] };
  const all = (panels: Panel[]): Panel[] => panels.flatMap((panel) => [panel, ...all(panel.panels ?? [])]);
  return all(dashboard.panels).flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })));
}

/** Grafana's variables as a query sent straight to Prometheus needs them. */
export function withGrafanaVariables(expr: string, rateInterval = '1m'): string {
  return expr.replaceAll('$__rate_interval', rateInterval);
}

const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset', 'and', 'or', 'unless', 'inf', 'nan']);

/**
 * The metric names in a PromQL expression: identifiers that are not functions or aggregations (followed
 * by `(`), keywords, label names (inside `{}` or a grouping), strings, durations or numbers.
 */
export function metricNamesIn(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const names = new Set<string>();
  for (const match of stripped.matchAll(/(?<![\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)) {
    if (match[2] || KEYWORDS.has(match[1].toLowerCase()) || /^\d/.test(match[1])) continue;
    names.add(match[1]);
  }
  return [...names];
}
