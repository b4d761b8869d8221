import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { yen } from '../../shared/format';

const HEIGHT = 320;

interface Props {
  /** One label per bar (`11/22`), oldest first. */
  labels: readonly string[];
  values: readonly number[];
  seriesLabel: string;
  /** The legend's name of the hovered day. */
  xLabel: string;
  /** What a screen reader hears for the canvas; the table beside it holds the figures. */
  description: string;
}

/**
 * Daily sales as bars (uPlot on a canvas). The x values are the day indexes so the labels are
 * the contract's calendar days, not the browser's zone. The legend shows the hovered day in yen,
 * and the latest day when no day is hovered (uPlot's own legend would be an empty `日付: 売上:`).
 */
export function SalesChart({ labels, values, seriesLabel, xLabel, description }: Props) {
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const xs = labels.map((_, i) => i);
    // The day the legend names: the hovered one, else the latest.
    const shown = (idx: number | null) => idx ?? labels.length - 1;
    const max = Math.max(0, ...values);
    const min = Math.min(0, ...values);
    const options: uPlot.Options = {
      width: Math.max(320, el.clientWidth),
      height: HEIGHT,
      scales: {
        x: { time: false, range: [-0.5, labels.length - 0.5] },
        // Bars grow from 0; an empty month still gets a scale.
        y: { range: [min < 0 ? min * 1.1 : 0, max > 0 ? max * 1.1 : 1000] },
      },
      axes: [
        { incrs: [1, 2, 3, 7, 14], values: (_u, splits) => splits.map((i) => labels[Math.round(i)] ?? ''), grid: { show: false } },
        { size: 90, values: (_u, splits) => splits.map((v) => yen(v)) },
      ],
      series: [
        { label: xLabel, value: (_u, _x, _s, idx) => labels[shown(idx)] ?? '' },
        {
          label: seriesLabel,
          stroke: '#0172ad',
          fill: 'rgba(1, 114, 173, 0.55)',
          width: 1,
          paths: uPlot.paths.bars!({ size: [0.7, 40] }),
          points: { show: false },
          value: (_u, _v, _s, idx) => {
            const v = values[shown(idx)];
            return v === undefined ? '' : yen(v);
          },
        },
      ],
      cursor: { drag: { x: false, y: false } },
    };
    const chart = new uPlot(options, [xs, [...values]], el);
    // The screen may be resized (Electron window, browser zoom): the canvas follows its box.
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(320, el.clientWidth), height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [labels, values, seriesLabel, xLabel]);

  return <div ref={host} className="sales-chart" role="img" aria-label={description} data-testid="sales-chart" />;
}
