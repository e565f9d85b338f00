// A horizontal bar chart drawn by Chart.js, loaded only when a chart is first shown so the
// app's first load stays small. The canvas is an image with a summary label; the same figures
// are in the table beside it, which is what screen readers and keyboard users read.
import { useEffect, useRef } from 'preact/hooks';

export interface BarSeries {
  label: string;
  values: number[];
  color: string;
}

async function loadChart() {
  const m = await import('chart.js');
  m.Chart.register(m.BarController, m.BarElement, m.CategoryScale, m.LinearScale, m.Legend, m.Tooltip);
  return m.Chart;
}

export function BarChart(props: {
  labels: string[];
  series: BarSeries[];
  summary: string;
  format: (n: number) => string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let chart: { destroy(): void } | null = null;
    let gone = false;
    void loadChart().then((Chart) => {
      if (gone || !canvas.current) return;
      chart = new Chart(canvas.current, {
        type: 'bar',
        data: {
          labels: props.labels,
          datasets: props.series.map((s) => ({ label: s.label, data: s.values, backgroundColor: s.color })),
        },
        options: {
          indexAxis: 'y',
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          plugins: {
            legend: { display: props.series.length > 1 },
            tooltip: { callbacks: { label: (ctx) => `${ctx.dataset.label}: ${props.format(Number(ctx.raw))}` } },
          },
          scales: { x: { ticks: { callback: (v) => props.format(Number(v)) } } },
        },
      });
    });
    return () => {
      gone = true;
      chart?.destroy();
    };
  }, [props.labels, props.series, props.format]);

  const height = Math.max(160, props.labels.length * (props.series.length > 1 ? 36 : 26) + 60);
  return (
    <div class="bar-chart" style={{ height: `${height}px` }}>
      <canvas ref={canvas} role="img" aria-label={props.summary} />
    </div>
  );
}
