// Talking to the lab's endpoints: JSON in, JSON out; a refusal is a LabProblem with its sentence.

import type { Problem } from './generated/api';

export class LabProblem extends Error {}

async function read<T>(response: Response): Promise<T> {
  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    throw new LabProblem(`the lab answered ${response.status} with something that is not JSON`);
  }
  if (!response.ok) {
    const problem = data as Partial<Problem> | null;
    throw new LabProblem(problem?.error ?? `the lab answered ${response.status}`);
  }
  return data as T;
}

async function send(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    throw new LabProblem('the lab is not answering: is `nova lab` still running?');
  }
}

export async function getJSON<T>(url: string): Promise<T> {
  return read<T>(await send(url));
}

export async function postJSON<T>(url: string, body: unknown): Promise<T> {
  return read<T>(await send(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }));
}

/** `/api/games/NAME/...` with each part escaped. */
export function gameUrl(name: string, ...rest: string[]): string {
  return ['/api/games', encodeURIComponent(name), ...rest.map(encodeURIComponent)].join('/');
}

export function query(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
