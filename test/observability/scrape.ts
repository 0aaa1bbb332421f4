/** One sample of a Prometheus text exposition: `name{a="1",b="2"} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of an exposition (comments skipped). */
export function parseExposition(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`Not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [k!, v!]),
      );
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The value of the one sample named `name` with exactly `labels`, else 0 (a series not yet seen). */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  const found = samples.filter(
    (s) => s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === wanted,
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${wanted}`);
  return found[0]?.value ?? 0;
}
