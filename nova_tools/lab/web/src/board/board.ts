// The board's public face: give it state, it redraws at once; it reports what the user picked.

import { pick } from './events';
import { foggedTiles, geometry, render } from './render';
import { type BoardState, type Selection, initialState } from './state';

export class Board {
  readonly canvas: HTMLCanvasElement;
  private state: BoardState = initialState();
  private cssSize = 0;
  private readonly observer: ResizeObserver;

  constructor(canvas: HTMLCanvasElement, private readonly onPick: (selection: Selection | null) => void) {
    this.canvas = canvas;
    canvas.addEventListener('click', (event) => {
      const rect = canvas.getBoundingClientRect();
      const geo = geometry(this.state, rect.width);
      this.onPick(pick(this.state, geo, event.clientX - rect.left, event.clientY - rect.top));
    });
    this.observer = new ResizeObserver(() => this.resize());
    this.observer.observe(canvas);
  }

  get current(): BoardState {
    return this.state;
  }

  /** Change what is drawn and redraw now (synchronously: a scrub's cost is measured to here). */
  set(update: Partial<BoardState>): void {
    this.state = { ...this.state, ...update };
    this.draw();
  }

  private resize(): void {
    const width = this.canvas.getBoundingClientRect().width;
    if (width > 0 && Math.abs(width - this.cssSize) > 0.5) this.draw();
  }

  draw(): void {
    const { canvas, state } = this;
    const cssWidth = canvas.getBoundingClientRect().width || 480;
    const ratio = window.devicePixelRatio || 1;
    const cssHeight = (cssWidth * state.height) / state.width;
    const pixelsWide = Math.round(cssWidth * ratio);
    const pixelsHigh = Math.round(cssHeight * ratio);
    if (canvas.width !== pixelsWide || canvas.height !== pixelsHigh) {
      canvas.width = pixelsWide;
      canvas.height = pixelsHigh;
    }
    this.cssSize = cssWidth;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    render(ctx, state, geometry(state, cssWidth));
    const frame = state.fog ?? state.frame;
    canvas.dataset.round = String(frame.round);
    canvas.dataset.turn = frame.turn === null ? '' : String(frame.turn);
    canvas.dataset.tile = String(cssWidth / state.width);
    canvas.dataset.fog = state.fog ? 'on' : 'off';
    canvas.dataset.fogTiles = foggedTiles(state);
  }

  dispose(): void {
    this.observer.disconnect();
  }
}
