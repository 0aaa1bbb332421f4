import type { Row, Target, TargetCheck } from './row.js';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

function rate(value: number | undefined): string {
  if (value === undefined) return '—';
  return value >= 100 ? integer.format(value) : value.toFixed(1);
}

function ms(value: number | undefined): string {
  if (value === undefined) return '—';
  return value >= 10 ? value.toFixed(0) : value.toFixed(2);
}

function mib(bytes: number | undefined): string {
  return bytes === undefined ? '—' : `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
}

/** Fills each row's ratio against its baseline row, when both were measured. */
export function applyRatios(rows: Row[]): void {
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const row of rows) {
    const base = row.baseline ? byId.get(row.baseline) : undefined;
    if (row.opsPerSecond !== undefined && base?.opsPerSecond)
      row.ratio = row.opsPerSecond / base.opsPerSecond;
  }
}

export function checkTargets(rows: Row[], targets: Target[]): TargetCheck[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return targets.map((target) => {
    const value = (row: Row | undefined) => (target.metric === 'ratio' ? row?.ratio : row?.opsPerSecond);
    const measured = value(byId.get(target.row));
    const base = value(byId.get(target.baseline));
    if (measured === undefined || !base) return { ...target };
    const ratio = measured / base;
    return { ...target, ratio, pass: ratio >= target.atLeast };
  });
}

function table(header: string[], body: string[][], rightAligned: Set<number>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((line) => line[i]!.length)));
  const cell = (text: string, i: number) =>
    rightAligned.has(i) ? text.padStart(widths[i]!) : text.padEnd(widths[i]!);
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (rightAligned.has(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...body.map(line)].join('\n');
}

/** The results as a Markdown table, so the same text goes to the terminal and to the docs. */
export function formatRows(rows: Row[]): string {
  const body = rows.map((row) => [
    row.scenario,
    row.pending ? `pending: ${row.pending}` : `${rate(row.opsPerSecond)} ${row.unit}`,
    ms(row.p50Ms),
    ms(row.p99Ms),
    mib(row.peakRssBytes),
    row.ratio === undefined ? '—' : `${row.ratio.toFixed(2)}× ${row.baseline}`,
    row.failures ? String(row.failures) : '',
  ]);
  return table(
    ['scenario', 'rate', 'p50 ms', 'p99 ms', 'peak RSS', 'ratio vs baseline', 'errors'],
    body,
    new Set([1, 2, 3, 4]),
  );
}

export function formatTargets(checks: TargetCheck[]): string {
  const body = checks.map((check) => [
    check.row,
    check.baseline,
    `≥ ${check.atLeast}×`,
    check.ratio === undefined ? '—' : `${check.ratio.toFixed(2)}×`,
    check.pass === undefined ? 'pending' : check.pass ? 'PASS' : 'MISS',
    check.source,
  ]);
  return table(['row', 'vs', 'target', 'measured', 'result', 'asked by'], body, new Set([2, 3]));
}
