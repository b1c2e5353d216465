// What every page of the lab is: an element, and what to undo when the user leaves it.

import type { LabInfo } from '../generated/api';

export interface Page {
  element: HTMLElement;
  dispose?(): void;
}

export interface PageContext {
  info: LabInfo;
  args: string[]; // the route's parts after the page name (#/replay/NAME -> ["NAME"])
  query: URLSearchParams;
  go(hash: string): void;
}

export type PageFactory = (context: PageContext) => Page;

/** `#/replay/NAME?round=3` for a game. */
export function replayHash(name: string, round?: number): string {
  return `#/replay/${encodeURIComponent(name)}${round !== undefined ? `?round=${round}` : ''}`;
}
