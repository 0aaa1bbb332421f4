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

function cpu(msPerOp: number | undefined): string {
  if (msPerOp === undefined) return '—';
  const us = msPerOp * 1000;
  return `${us >= 100 ? integer.format(us) : us.toFixed(1)} µs`;
}

function mib(bytes: number | undefined): string {
  return bytes === undefined ? '—' : `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
}

/** For a paired row: how many pairs its median ratio comes from, and their range. */
function spread(ratios: number[] | undefined): string {
  if (!ratios?.length) return '';
  return ` (median of ${ratios.length} pairs, ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`;
}

/** Fills each row's ratio against its baseline row, when both were measured. */
export function applyRatios(rows: Row[]): void {
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const row of rows) {
    const base = row.baseline ? byId.get(row.baseline) : undefined;
    // A row that brings its own ratios (paired rows, the routing bench's paired rounds) keeps them.
    if (row.ratio === undefined && row.opsPerSecond !== undefined && base?.opsPerSecond) {
      row.ratio = row.opsPerSecond / base.opsPerSecond;
    }
    if (row.cpuRatio === undefined && row.cpuMsPerOp && base?.cpuMsPerOp) {
      row.cpuRatio = base.cpuMsPerOp / row.cpuMsPerOp;
    }
  }
}

export function checkTargets(rows: Row[], targets: Target[]): TargetCheck[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return targets.map((target) => {
    const row = byId.get(target.row);
    if (target.atMostMiB !== undefined) {
      if (!row?.peakRssBytes) return { ...target };
      const peakMiB = row.peakRssBytes / 1024 / 1024;
      return { ...target, peakMiB, pass: peakMiB <= target.atMostMiB };
    }
    if (target.metric === 'paired') {
      if (row?.ratio === undefined || row.baseline !== target.baseline) return { ...target };
      const { ratio, cpuRatio } = row;
      return {
        ...target,
        ratio,
        pass: ratio >= target.atLeast,
        ...(cpuRatio === undefined ? {} : { cpuRatio, cpuPass: cpuRatio >= target.atLeast }),
      };
    }
    const baseline = byId.get(target.baseline);
    const value = (r: Row | undefined) => (target.metric === 'ratio' ? r?.ratio : r?.opsPerSecond);
    const perCpu = (r: Row | undefined) =>
      target.metric === 'ratio' ? r?.cpuRatio : r?.cpuMsPerOp ? 1000 / r.cpuMsPerOp : undefined;
    const measured = value(row);
    const base = value(baseline);
    if (measured === undefined || !base) return { ...target };
    const ratio = measured / base;
    const cpuRow = perCpu(row);
    const cpuBase = perCpu(baseline);
    const cpuRatio = cpuRow !== undefined && cpuBase ? cpuRow / cpuBase : undefined;
    return {
      ...target,
      ratio,
      pass: ratio >= target.atLeast,
      ...(cpuRatio === undefined ? {} : { cpuRatio, cpuPass: cpuRatio >= target.atLeast }),
    };
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
    cpu(row.cpuMsPerOp),
    row.ratio === undefined ? '—' : `${row.ratio.toFixed(2)}× ${row.baseline}${spread(row.pairedRatios)}`,
    row.cpuRatio === undefined ? '—' : `${row.cpuRatio.toFixed(2)}×${spread(row.pairedCpuRatios)}`,
    row.failures ? String(row.failures) : '',
  ]);
  return table(
    [
      'scenario',
      'rate',
      'p50 ms',
      'p99 ms',
      'peak RSS',
      'CPU/op',
      'ratio vs baseline',
      'per CPU-s',
      'errors',
    ],
    body,
    new Set([1, 2, 3, 4, 5, 7]),
  );
}

export function formatTargets(checks: TargetCheck[]): string {
  const body = checks.map((check) => [
    check.row,
    check.atMostMiB === undefined ? check.baseline : 'peak RSS',
    check.atMostMiB === undefined ? `≥ ${check.atLeast}×` : `≤ ${check.atMostMiB} MiB`,
    check.peakMiB !== undefined
      ? `${check.peakMiB.toFixed(0)} MiB`
      : check.ratio === undefined
        ? '—'
        : `${check.ratio.toFixed(2)}×`,
    check.pass === undefined ? 'pending' : check.pass ? 'PASS' : 'MISS',
    check.cpuRatio === undefined ? '—' : `${check.cpuRatio.toFixed(2)}×`,
    check.cpuPass === undefined ? '—' : check.cpuPass ? 'PASS' : 'MISS',
    check.source,
  ]);
  return table(
    ['row', 'vs', 'target', 'rate ratio', 'result', 'per CPU-s', 'result', 'asked by'],
    body,
    new Set([2, 3, 5]),
  );
}
