// The Run panel: pick the players' scripts, the board size, the seed and the round count (which
// becomes rules.match.finalRound: the round the humans land on); run with live progress, then
// open the replay.

import { fill, h, labelled, points } from '../dom';
import type { JobStarted, RunOutcome, RunRequest, ScriptList } from '../generated/api';
import { postJSON } from '../http';
import { JobBox } from '../jobs';
import { guarded } from '../notify';
import { scriptList, scriptSelect } from '../scripts';
import { type Page, type PageContext, replayHash } from './page';

const NAMES = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'];

function defaultName(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `run-${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
}

function numberInput(name: string, value: number, min: number, max: number): HTMLInputElement {
  return h('input', { type: 'number', name, value, min, max, step: 1, required: true });
}

export function runPage(context: PageContext): Page {
  const seats = h('div', { class: 'seats' });
  const name = h('input', { type: 'text', name: 'name', value: defaultName(), required: true, pattern: '[A-Za-z0-9_\\-]{1,64}', spellcheck: false });
  const width = numberInput('width', 12, 2, 256);
  const height = numberInput('height', 12, 2, 256);
  const seed = numberInput('seed', 0, 0, 2 ** 53);
  const rounds = numberInput('rounds', 20, 1, 10000);
  const replace = h('input', { type: 'checkbox', name: 'force' });
  const job = new JobBox('run-job');
  const result = h('div', { class: 'result' });
  const submit = h('button', { type: 'submit', class: 'primary', text: 'Run' });
  let list: ScriptList | null = null;

  function seatRow(player: string, script: string): HTMLElement {
    const remove = h('button', { type: 'button', class: 'ghost', title: 'remove this player', text: '−' });
    const row = h(
      'div',
      { class: 'seat' },
      h('input', { type: 'text', name: 'player', value: player, required: true, 'aria-label': 'player id', spellcheck: false }),
      list ? scriptSelect(list, script, 'script') : h('select', { name: 'script' }),
      remove,
    );
    remove.addEventListener('click', () => {
      if (seats.children.length > 1) row.remove();
    });
    return row;
  }

  const addSeat = h('button', {
    type: 'button',
    class: 'ghost',
    text: '+ player',
    onclick: () => {
      if (seats.children.length < 8) seats.appendChild(seatRow(NAMES[seats.children.length] ?? `p${seats.children.length + 1}`, list?.starter ?? 'starter'));
    },
  });

  const form = h(
    'form',
    { class: 'card run-form', 'aria-label': 'run a game' },
    h('h2', { text: 'Players' }),
    seats,
    addSeat,
    h('h2', { text: 'Game' }),
    h(
      'div',
      { class: 'grid' },
      labelled('Game name', name, 'the file: NAME.json in the root'),
      labelled('Rounds', rounds, 'the humans land on the last one (match.finalRound)'),
      labelled('Board width', width),
      labelled('Board height', height),
      labelled('Seed', seed, 'same seed and scripts: the same game'),
      h('label', { class: 'field inline' }, replace, ' replace a game of that name'),
    ),
    h('div', { class: 'actions' }, submit),
  );

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const request: RunRequest = {
      name: name.value.trim(),
      seats: [...seats.querySelectorAll('.seat')].map((row) => ({
        player: (row.querySelector('input') as HTMLInputElement).value.trim(),
        script: (row.querySelector('select') as HTMLSelectElement).value,
      })),
      width: Number(width.value),
      height: Number(height.value),
      seed: Number(seed.value),
      rounds: Number(rounds.value),
      force: replace.checked,
    };
    void guarded(async () => {
      const started = await postJSON<JobStarted>('/api/runs', request);
      submit.disabled = true;
      fill(result);
      job.follow(started.id, {
        onDone: (data) => {
          const outcome = data as unknown as RunOutcome;
          const open = h('a', { class: 'button primary', href: replayHash(outcome.name), text: `Open the replay of ${outcome.name}` });
          fill(
            result,
            h('p', {}, `${outcome.rounds} rounds in ${points(outcome.seconds)} s; the humans landed on round ${outcome.finalTurn ?? '-'}.`),
            h('ul', {}, ...[...outcome.players].sort((a, b) => b.score - a.score).map((p) => h('li', { dataset: { player: p.id } }, `${p.id}: ${points(p.score)}`))),
            open,
          );
          // the result stays in view a moment, then the replay opens
          window.setTimeout(() => {
            if (result.isConnected) context.go(replayHash(outcome.name));
          }, 1500);
        },
        onEnd: () => {
          submit.disabled = false;
          name.value = defaultName();
        },
      });
    });
  });

  void guarded(async () => {
    list = await scriptList(true);
    fill(seats, seatRow('alice', list.starter), seatRow('bob', list.starter));
  });

  const element = h(
    'section',
    { class: 'page run-page' },
    h('div', { class: 'page-head' }, h('h1', { text: 'Run' }), h('span', { class: 'muted', text: 'play a whole game of scripts to its arrival round, then watch it' })),
    h('div', { class: 'two-col' }, form, h('div', {}, job.element, result)),
  );
  return { element, dispose: () => job.dispose() };
}
