// Picking an android script: the starter, a house android (house:NAME), or a .ts file under the lab's root.

import { h } from './dom';
import type { ScriptList } from './generated/api';
import { getJSON } from './http';

let cached: Promise<ScriptList> | null = null;

export function scriptList(refresh = false): Promise<ScriptList> {
  if (!cached || refresh) cached = getJSON<ScriptList>('/api/scripts');
  return cached;
}

function label(list: ScriptList, script: string): string {
  if (script === list.starter) return `${script} (the shipped starter)`;
  if (list.house.includes(script)) return `${script} (a house android)`;
  return script;
}

export function scriptSelect(list: ScriptList, chosen: string, name: string): HTMLSelectElement {
  const select = h('select', { name, 'aria-label': 'script' });
  // house:starter is the starter itself, already first in the list
  const house = list.house.filter((script) => script !== `house:${list.starter}`);
  const options = [list.starter, ...house, ...list.scripts];
  for (const script of options) {
    select.appendChild(h('option', { value: script, text: label(list, script) }));
  }
  select.value = options.includes(chosen) ? chosen : list.starter;
  return select;
}
