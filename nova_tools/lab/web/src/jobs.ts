// Following a job the lab runs (a run, a match, an arena run): its events arrive over
// Server-Sent Events; the box shows progress, notices and how it ended, with a Cancel button.

import { h, fill } from './dom';
import type { JobEvent, JobView } from './generated/api';
import { postJSON } from './http';
import { guarded } from './notify';

const FINAL = new Set(['done', 'failed', 'cancelled']);

export function followJob(id: string, onEvent: (event: JobEvent) => void): () => void {
  const source = new EventSource(`/api/jobs/${encodeURIComponent(id)}/events`);
  source.addEventListener('job', (message) => {
    const event = JSON.parse((message as MessageEvent<string>).data) as JobEvent;
    onEvent(event);
    if (FINAL.has(event.kind)) source.close();
  });
  // on a dropped connection EventSource reconnects by itself, and the lab resends from the last id
  return () => source.close();
}

export interface JobBoxHooks {
  onEvent?: (event: JobEvent) => void;
  onDone?: (result: Record<string, unknown>, event: JobEvent) => void;
  onEnd?: (event: JobEvent) => void;
}

export class JobBox {
  readonly element: HTMLElement;
  private readonly bar = h('progress', { max: 1, value: 0 });
  private readonly status = h('p', { class: 'job-status', 'aria-live': 'polite' });
  private readonly log = h('ul', { class: 'job-log' });
  private readonly cancel = h('button', { class: 'ghost', type: 'button', text: 'Cancel' });
  private stop: (() => void) | null = null;
  private jobId: string | null = null;

  constructor(testId: string) {
    this.element = h('section', { class: 'job', hidden: true, dataset: { testid: testId, state: 'idle' } }, this.status, this.bar, this.log, this.cancel);
    this.cancel.addEventListener('click', () => {
      if (this.jobId) void guarded(() => postJSON<JobView>(`/api/jobs/${encodeURIComponent(this.jobId!)}/cancel`, {}));
    });
  }

  follow(id: string, hooks: JobBoxHooks = {}): void {
    this.stop?.();
    this.jobId = id;
    this.element.hidden = false;
    this.element.dataset.state = 'running';
    this.cancel.hidden = false;
    this.bar.removeAttribute('value'); // indeterminate until the first progress
    fill(this.log);
    this.stop = followJob(id, (event) => {
      this.show(event);
      hooks.onEvent?.(event);
      if (FINAL.has(event.kind)) {
        this.element.dataset.state = event.kind;
        this.cancel.hidden = true;
        if (event.kind === 'done') hooks.onDone?.(event.result ?? {}, event);
        hooks.onEnd?.(event);
      }
    });
  }

  private show(event: JobEvent): void {
    if (event.kind === 'progress' && event.total) {
      this.bar.max = event.total;
      this.bar.value = event.done ?? 0;
    }
    if (event.kind === 'done') {
      this.bar.max = 1;
      this.bar.value = 1;
    }
    this.status.textContent = event.message;
    this.status.className = `job-status ${event.kind}`;
    // the log keeps what happened, newest first: so a finished job's last line is how it ended, not its first step
    if (event.kind === 'notice' || event.kind === 'listening' || event.kind === 'done' || event.kind === 'failed' || event.kind === 'cancelled') {
      this.log.prepend(h('li', { class: event.kind, text: event.message }));
      while (this.log.children.length > 8) this.log.lastElementChild?.remove();
    }
  }

  dispose(): void {
    this.stop?.();
  }
}
