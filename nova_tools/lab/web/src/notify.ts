// One place for sentences the user should read: a refusal from the lab, a failed load.

import { h } from './dom';
import { LabProblem } from './http';

let banner: HTMLElement | null = null;

export function showProblem(error: unknown): void {
  const text = error instanceof LabProblem ? error.message : error instanceof Error ? `the page hit an error: ${error.message}` : String(error);
  clearProblem();
  banner = h(
    'div',
    { class: 'problem', role: 'alert' },
    h('span', { text }),
    h('button', { class: 'ghost', 'aria-label': 'dismiss', onclick: () => clearProblem() }, '×'),
  );
  document.body.appendChild(banner);
}

export function clearProblem(): void {
  banner?.remove();
  banner = null;
}

/** Run `work`, showing its refusal (if any) instead of letting it reach the console. */
export async function guarded<T>(work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    showProblem(error);
    return undefined;
  }
}
