// Charts on a canvas: lines over rounds with a cursor (the score chart), and horizontal bars (the
// arena). They draw numbers they are given.

export interface Series {
  id: string;
  colour: string;
  values: number[]; // one per x position
}

const AXIS = '#5b6578';
const TEXT = '#aab3c2';
const CURSOR = '#ffe14d';

function prepare(canvas: HTMLCanvasElement): { ctx: CanvasRenderingContext2D; width: number; height: number } | null {
  const rect = canvas.getBoundingClientRect();
  const width = rect.width || 300;
  const height = rect.height || 160;
  const ratio = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  ctx.font = '11px system-ui, sans-serif';
  return { ctx, width, height };
}

/** A step just above `value` (1, 2, 2.5, 5 x 10^n) for axis labels. */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

export class LineChart {
  private series: Series[] = [];
  private labels: number[] = []; // the x positions' labels (rounds)
  private cursor = 0;
  private readonly margin = { left: 40, right: 10, top: 10, bottom: 22 };

  constructor(readonly canvas: HTMLCanvasElement, private readonly onSeek: (index: number) => void) {
    canvas.addEventListener('click', (event) => {
      const rect = canvas.getBoundingClientRect();
      const index = this.indexAt(event.clientX - rect.left, rect.width);
      if (index !== null) this.onSeek(index);
    });
  }

  private indexAt(px: number, width: number): number | null {
    const count = this.labels.length;
    if (count === 0) return null;
    const span = width - this.margin.left - this.margin.right;
    const share = (px - this.margin.left) / span;
    return Math.max(0, Math.min(count - 1, Math.round(share * (count - 1))));
  }

  setData(series: Series[], labels: number[]): void {
    this.series = series;
    this.labels = labels;
    this.draw();
  }

  setCursor(index: number): void {
    this.cursor = index;
    this.draw();
  }

  draw(): void {
    const prepared = prepare(this.canvas);
    if (!prepared) return;
    const { ctx, width, height } = prepared;
    const { left, right, top, bottom } = this.margin;
    const plotW = width - left - right;
    const plotH = height - top - bottom;
    const count = this.labels.length;
    const highest = niceMax(Math.max(0, ...this.series.flatMap((s) => s.values)));
    const xOf = (index: number) => left + (count <= 1 ? 0 : (index / (count - 1)) * plotW);
    const yOf = (value: number) => top + plotH - (value / highest) * plotH;
    ctx.strokeStyle = AXIS;
    ctx.fillStyle = TEXT;
    ctx.lineWidth = 1;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const share of [0, 0.5, 1]) {
      const y = yOf(highest * share);
      ctx.globalAlpha = share === 0 ? 1 : 0.35;
      ctx.beginPath();
      ctx.moveTo(left, y);
      ctx.lineTo(left + plotW, y);
      ctx.stroke();
      ctx.globalAlpha = 1;
      ctx.fillText(String(highest * share), left - 4, y);
    }
    if (count > 0) {
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      ctx.fillText(`round ${this.labels[0]}`, left, top + plotH + 6);
      ctx.textAlign = 'right';
      ctx.fillText(`round ${this.labels[count - 1]}`, left + plotW, top + plotH + 6);
    }
    for (const series of this.series) {
      ctx.strokeStyle = series.colour;
      ctx.lineWidth = 2;
      ctx.beginPath();
      series.values.forEach((value, index) => {
        if (index === 0) ctx.moveTo(xOf(index), yOf(value));
        else ctx.lineTo(xOf(index), yOf(value));
      });
      ctx.stroke();
    }
    if (count > 0) {
      const x = xOf(Math.min(this.cursor, count - 1));
      ctx.strokeStyle = CURSOR;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + plotH);
      ctx.stroke();
    }
  }
}

export interface Bar {
  label: string;
  value: number;
  low?: number; // an interval around the value
  high?: number;
  colour: string;
}

/** Horizontal bars from zero (negative values to the left), with optional intervals. */
export function drawBars(canvas: HTMLCanvasElement, bars: Bar[]): void {
  const prepared = prepare(canvas);
  if (!prepared) return;
  const { ctx, width, height } = prepared;
  const labelW = 110;
  const plotW = width - labelW - 50;
  const extent = niceMax(Math.max(1e-9, ...bars.map((b) => Math.max(Math.abs(b.value), Math.abs(b.low ?? 0), Math.abs(b.high ?? 0)))));
  const hasNegative = bars.some((b) => b.value < 0 || (b.low ?? 0) < 0);
  const zero = labelW + (hasNegative ? plotW / 2 : 0);
  const scale = (hasNegative ? plotW / 2 : plotW) / extent;
  const row = Math.min(26, (height - 10) / Math.max(1, bars.length));
  ctx.textBaseline = 'middle';
  bars.forEach((bar, index) => {
    const y = 5 + index * row;
    ctx.fillStyle = TEXT;
    ctx.textAlign = 'right';
    ctx.fillText(bar.label, labelW - 8, y + row / 2);
    ctx.fillStyle = bar.colour;
    const x0 = Math.min(zero, zero + bar.value * scale);
    ctx.fillRect(x0, y + row * 0.2, Math.abs(bar.value * scale), row * 0.6);
    if (bar.low !== undefined && bar.high !== undefined) {
      ctx.strokeStyle = '#e8ecf2';
      ctx.beginPath();
      ctx.moveTo(zero + bar.low * scale, y + row / 2);
      ctx.lineTo(zero + bar.high * scale, y + row / 2);
      ctx.stroke();
    }
    ctx.fillStyle = TEXT;
    ctx.textAlign = 'left';
    ctx.fillText(String(Math.round(bar.value * 100) / 100), Math.max(zero, zero + bar.value * scale) + 4, y + row / 2);
  });
  ctx.strokeStyle = AXIS;
  ctx.beginPath();
  ctx.moveTo(zero, 0);
  ctx.lineTo(zero, height);
  ctx.stroke();
}
