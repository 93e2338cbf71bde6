import type { JoinSample } from './join-storm';

export interface ChartSeries {
  label: string;
  color: string;
  samples: readonly JoinSample[];
}

const WIDTH = 900;
const HEIGHT = 440;
const MARGIN = { top: 48, right: 24, bottom: 52, left: 72 };

/**
 * Join latency over the storm as a hand-written SVG scatter: x = when the player connected,
 * y = how long until the decision. Wrong decisions are drawn as crosses.
 */
export function joinLatencyChart(series: readonly ChartSeries[], title: string, targetMs?: number): string {
  const points = series.flatMap((s) => s.samples);
  const maxX = niceCeil(Math.max(1_000, ...points.map((p) => p.connectAtMs)));
  const maxY = niceCeil(
    Math.max(targetMs ?? 0, ...points.map((p) => (p.latencyMs === null ? 0 : p.latencyMs))) * 1.05,
  );
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (v: number) => (MARGIN.left + (v / maxX) * plotW).toFixed(1);
  const y = (v: number) => (MARGIN.top + plotH - (Math.min(v, maxY) / maxY) * plotH).toFixed(1);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    `<text x="${WIDTH / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  for (const tick of ticks(maxY)) {
    out.push(
      `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(tick)}" y2="${y(tick)}" stroke="#e5e5e5"/>`,
      `<text x="${MARGIN.left - 6}" y="${y(tick)}" text-anchor="end" dominant-baseline="middle">${tick.toLocaleString('en-US')}</text>`,
    );
  }
  for (const tick of ticks(maxX)) {
    out.push(
      `<line x1="${x(tick)}" x2="${x(tick)}" y1="${MARGIN.top + plotH}" y2="${MARGIN.top + plotH + 4}" stroke="#333"/>`,
      `<text x="${x(tick)}" y="${MARGIN.top + plotH + 18}" text-anchor="middle">${(tick / 1000).toLocaleString('en-US')}</text>`,
    );
  }
  out.push(
    `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${MARGIN.top + plotH}" y2="${MARGIN.top + plotH}" stroke="#333"/>`,
    `<line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${MARGIN.top + plotH}" stroke="#333"/>`,
    `<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 12}" text-anchor="middle">connect time (s after the storm began)</text>`,
    `<text transform="translate(18 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">connect → decision (ms)</text>`,
  );
  if (targetMs !== undefined) {
    out.push(
      `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(targetMs)}" y2="${y(targetMs)}" stroke="#999" stroke-dasharray="6 4"/>`,
      `<text x="${WIDTH - MARGIN.right - 4}" y="${Number(y(targetMs)) - 5}" text-anchor="end" fill="#666">p99 target ${targetMs.toLocaleString('en-US')} ms</text>`,
    );
  }
  for (const s of series) {
    out.push(`<g fill="${s.color}" stroke="${s.color}" fill-opacity="0.55">`);
    for (const p of s.samples) {
      const cy = y(p.latencyMs ?? maxY);
      const cx = x(p.connectAtMs);
      if (p.latencyMs !== null && p.admitted === p.player.shouldAdmit)
        out.push(`<circle cx="${cx}" cy="${cy}" r="1.8" stroke="none"/>`);
      else
        out.push(
          `<path d="M${Number(cx) - 2.5} ${Number(cy) - 2.5}l5 5m0 -5l-5 5" fill="none" stroke-width="1"/>`,
        );
    }
    out.push('</g>');
  }
  series.forEach((s, i) => {
    const lx = MARGIN.left + 12 + i * 260;
    out.push(
      `<circle cx="${lx}" cy="36" r="4" fill="${s.color}"/>`,
      `<text x="${lx + 9}" y="36" dominant-baseline="middle">${escapeXml(s.label)}</text>`,
    );
  });
  const crossX = MARGIN.left + 12 + series.length * 260;
  out.push(
    `<path d="M${crossX - 3} 33l6 6m0 -6l-6 6" stroke="#333" fill="none"/>`,
    `<text x="${crossX + 9}" y="36" dominant-baseline="middle">wrong decision</text>`,
    '</svg>',
  );
  return `${out.join('\n')}\n`;
}

function niceCeil(value: number): number {
  const step = 10 ** Math.floor(Math.log10(value));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * step >= value) return m * step;
  return 10 * step;
}

function ticks(max: number): number[] {
  const raw = max / 6;
  const step = niceCeil(raw);
  const out: number[] = [];
  for (let v = 0; v <= max + 1e-9; v += step) out.push(v);
  return out;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
