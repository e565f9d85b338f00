// The monthly target as a ring (billed vs. still to bill), drawn by Chart.js with only the
// doughnut parts registered so the rest of the library stays out of the bundle. Loaded with
// import() from the dashboard: the initial JavaScript does not carry it.
import { ArcElement, Chart, DoughnutController } from 'chart.js';

Chart.register(DoughnutController, ArcElement);

export function drawTarget(canvas: HTMLCanvasElement, billed: number, target: number): () => void {
  const styles = getComputedStyle(canvas);
  const done = styles.getPropertyValue('--pico-primary').trim() || '#00815f';
  const rest = styles.getPropertyValue('--pico-muted-border-color').trim() || '#e7eaf0';
  const missing = Math.max(target - billed, 0);
  const chart = new Chart(canvas, {
    type: 'doughnut',
    data: {
      labels: ['Faturado', 'Falta'],
      datasets: [{ data: [billed, missing], backgroundColor: [done, rest], borderWidth: 0 }],
    },
    options: {
      cutout: '72%',
      responsive: true,
      maintainAspectRatio: true,
      animation: false,
      plugins: { legend: { display: false }, tooltip: { enabled: false } },
      events: [],
    },
  });
  return () => chart.destroy();
}
