// Picking an android script: the starter, or a .ts file under the lab's root.

import { h } from './dom';
import type { ScriptList } from './generated/api';
import { getJSON } from './http';

let cached: Promise<ScriptList> | null = null;

export function scriptList(refresh = false): Promise<ScriptList> {
  if (!cached || refresh) cached = getJSON<ScriptList>('/api/scripts');
  return cached;
}

export function scriptSelect(list: ScriptList, chosen: string, name: string): HTMLSelectElement {
  const select = h('select', { name, 'aria-label': 'script' });
  const options = [list.starter, ...list.scripts];
  for (const script of options) {
    select.appendChild(h('option', { value: script, text: script === list.starter ? `${script} (the shipped starter)` : script }));
  }
  select.value = options.includes(chosen) ? chosen : list.starter;
  return select;
}
