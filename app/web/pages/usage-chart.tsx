import type { FC } from 'hono/jsx';

/** Units per day of month (index 0 = the 1st) for one period. */
export interface DailySeries {
  label: string;
  days: number[];
}

const WIDTH = 600;
const HEIGHT = 240;
const PAD = { top: 16, right: 12, bottom: 28, left: 48 };
const CURRENT = '#2f5bd3';
const PREVIOUS = '#b8c2d6';

/** A round step and the smallest multiple of it at or above `max`: the y axis's top. */
function axisTop(max: number): { top: number; step: number } {
  if (max <= 0) return { top: 4, step: 1 };
  const raw = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!;
  return { top: Math.ceil(max / step) * step, step };
}

const format = (n: number) => n.toLocaleString('en-US');
const sum = (days: number[]) => days.reduce((a, b) => a + b, 0);

/**
 * Calls per day as a server-rendered SVG bar chart: each day of the month has the current period's
 * bar and, beside it in grey, the previous period's same day. Every bar has a `<title>` (shown on
 * hover, read by screen readers); the figure's text alternative gives both periods' totals.
 */
export const UsageChart: FC<{ current: DailySeries; previous: DailySeries }> = ({ current, previous }) => {
  const slots = Math.max(current.days.length, previous.days.length);
  const { top, step } = axisTop(Math.max(...current.days, ...previous.days, 0));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slotW = plotW / slots;
  const barW = Math.max(1, slotW * 0.4);
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  const bar = (series: DailySeries, day: number, offset: number, fill: string) => {
    const v = series.days[day] ?? 0;
    return (
      <rect
        x={(PAD.left + day * slotW + offset).toFixed(1)}
        y={y(v).toFixed(1)}
        width={barW.toFixed(1)}
        height={(y(0) - y(v)).toFixed(1)}
        fill={fill}
      >
        <title>{`${series.label}, day ${day + 1}: ${format(v)} calls`}</title>
      </rect>
    );
  };
  return (
    <figure class="m-0" data-usage-chart>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        role="img"
        aria-label={`Calls per day: ${format(sum(current.days))} in ${current.label}, ${format(sum(previous.days))} in ${previous.label}`}
        font-size="12"
        font-family="system-ui, sans-serif"
      >
        {ticks.map((t) => (
          <g>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(t)} y2={y(t)} stroke="#e3e6ec" />
            <text x={PAD.left - 6} y={y(t) + 4} text-anchor="end" fill="#5b6475">
              {format(t)}
            </text>
          </g>
        ))}
        {Array.from({ length: slots }, (_, day) => (
          <g data-day={day + 1}>
            {bar(previous, day, slotW * 0.1, PREVIOUS)}
            {bar(current, day, slotW * 0.1 + barW, CURRENT)}
          </g>
        ))}
        {Array.from({ length: slots }, (_, day) =>
          day === 0 || (day + 1) % 5 === 0 ? (
            <text x={PAD.left + (day + 0.5) * slotW} y={HEIGHT - 10} text-anchor="middle" fill="#5b6475">
              {day + 1}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption class="small muted">
        <svg width="10" height="10" aria-hidden="true">
          <rect width="10" height="10" fill={CURRENT} />
        </svg>{' '}
        {current.label}: {format(sum(current.days))} calls ·{' '}
        <svg width="10" height="10" aria-hidden="true">
          <rect width="10" height="10" fill={PREVIOUS} />
        </svg>{' '}
        {previous.label}: {format(sum(previous.days))} calls
      </figcaption>
    </figure>
  );
};
