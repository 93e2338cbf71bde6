import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { PanelStatus } from '../panel-status-shape';

/** Requests per minute over the last hour, against the key's per-minute limit. */
export class RateChart {
  private plot: uPlot | null = null;

  constructor(private readonly host: HTMLElement) {
    new ResizeObserver(() => this.plot?.setSize(this.size())).observe(host);
  }

  update(rate: PanelStatus['rateLimit']): void {
    const series = rate.perMinuteSeries;
    const data: uPlot.AlignedData = [
      series.map((m) => m.at / 1000),
      series.map((m) => m.requests),
      series.map(() => rate.perMinute),
      series.map((m) => m.throttled),
    ];
    if (this.plot) {
      this.plot.setData(data);
      return;
    }
    this.plot = new uPlot(
      {
        ...this.size(),
        legend: { live: false },
        cursor: { drag: { x: false, y: false } },
        scales: { y: { range: (_u, _min, max) => [0, Math.max(max, 1) * 1.1] } },
        axes: [
          { stroke: '#94a3b8', grid: { stroke: '#334155' }, ticks: { stroke: '#334155' } },
          { stroke: '#94a3b8', grid: { stroke: '#334155' }, ticks: { stroke: '#334155' }, size: 44 },
        ],
        series: [
          {},
          {
            label: 'requests / min',
            stroke: '#60a5fa',
            fill: 'rgba(96,165,250,0.25)',
            width: 2,
            points: { show: false },
          },
          { label: 'limit', stroke: '#f87171', dash: [6, 4], width: 1.5, points: { show: false } },
          { label: '429s', stroke: '#fbbf24', width: 2, points: { show: false } },
        ],
      },
      data,
      this.host,
    );
  }

  private size(): { width: number; height: number } {
    return { width: Math.max(240, this.host.clientWidth), height: 200 };
  }
}
