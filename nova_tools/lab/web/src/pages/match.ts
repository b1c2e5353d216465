// Match › Host / Join: a peer match over the peer-match api. Host offers rounds, board sizes and a
// disclosure, shows the command (and the address) a peer joins with; both sides show live
// progress and the verified result.

import { fill, h, labelled, points } from '../dom';
import type { HostRequest, JobEvent, JobStarted, JoinRequest, MatchOutcome, ScriptList } from '../generated/api';
import { postJSON } from '../http';
import { JobBox } from '../jobs';
import { guarded } from '../notify';
import { scriptList, scriptSelect } from '../scripts';
import { type Page, type PageContext, replayHash } from './page';

function stamp(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
}

function outcomeView(outcome: MatchOutcome): HTMLElement {
  return h(
    'div',
    { class: `match-outcome ${outcome.outcome}`, dataset: { outcome: outcome.outcome } },
    h('p', {}, h('b', { class: 'badge', text: outcome.verified ? 'verified' : outcome.outcome }), ` ${outcome.sentence}`),
    h(
      'ul',
      {},
      ...[...outcome.status.players].sort((a, b) => b.score - a.score).map((p) => h('li', { dataset: { player: p.id, score: String(p.score) } }, `${p.id}: ${points(p.score)}`)),
    ),
    outcome.disclosure === 'full' ? h('a', { class: 'button', href: replayHash(outcome.name), text: `Open the replay of ${outcome.name}` }) : h('p', { class: 'muted', text: 'a match record (disclosure: recording): the final scores and your own recordings only' }),
  );
}

export function matchPage(context: PageContext): Page {
  const hostJob = new JobBox('host-job');
  const joinJob = new JobBox('join-job');
  const hostResult = h('div', { class: 'result', dataset: { testid: 'host-result' } });
  const joinResult = h('div', { class: 'result', dataset: { testid: 'join-result' } });
  const joinCommand = h('div', { class: 'join-command', hidden: true, dataset: { testid: 'join-command' } });

  const host = {
    name: h('input', { type: 'text', name: 'name', value: `match-host-${stamp()}`, required: true, spellcheck: false }),
    player: h('input', { type: 'text', name: 'player', value: 'alice', required: true, spellcheck: false }),
    script: h('select', { name: 'script' }),
    rounds: h('input', { type: 'number', name: 'rounds', value: 20, min: 1, max: 10000, required: true }),
    sizes: h('input', { type: 'text', name: 'sizes', value: '12x12', placeholder: '12x12,24x24', spellcheck: false }),
    disclosure: h('select', { name: 'disclosure' }, h('option', { value: 'full', text: 'full: both keep the whole game' }), h('option', { value: 'recording', text: 'recording: scores and own recordings only' })),
    submit: h('button', { type: 'submit', class: 'primary', text: 'Host' }),
  };
  const join = {
    url: h('input', { type: 'text', name: 'url', placeholder: 'ws://127.0.0.1:PORT', required: true, spellcheck: false }),
    name: h('input', { type: 'text', name: 'name', value: `match-join-${stamp()}`, required: true, spellcheck: false }),
    player: h('input', { type: 'text', name: 'player', value: 'bob', required: true, spellcheck: false }),
    script: h('select', { name: 'script' }),
    size: h('input', { type: 'text', name: 'size', placeholder: 'the first size offered', spellcheck: false }),
    submit: h('button', { type: 'submit', class: 'primary', text: 'Join' }),
  };
  if (context.query.get('join')) join.url.value = context.query.get('join')!;

  const hostForm = h(
    'form',
    { class: 'card', 'aria-label': 'host a match' },
    h('h2', { text: 'Host' }),
    labelled('Game name', host.name, 'your copy of the match: NAME.json'),
    labelled('Your player id', host.player),
    labelled('Your script', host.script),
    labelled('Rounds', host.rounds, 'the humans land on the last one'),
    labelled('Board sizes offered', host.sizes, 'the joiner picks one'),
    labelled('Disclosure', host.disclosure),
    h('div', { class: 'actions' }, host.submit),
    joinCommand,
    hostJob.element,
    hostResult,
  );
  const joinForm = h(
    'form',
    { class: 'card', 'aria-label': 'join a match' },
    h('h2', { text: 'Join' }),
    labelled('Host address', join.url, 'what the host shows: ws://…'),
    labelled('Game name', join.name),
    labelled('Your player id', join.player),
    labelled('Your script', join.script),
    labelled('Board size', join.size),
    h('div', { class: 'actions' }, join.submit),
    joinJob.element,
    joinResult,
  );

  function listening(event: JobEvent): void {
    if (event.kind !== 'listening' || !event.url) return;
    const command = `nova join ${event.url} --player YOU bot.ts --file match.json`;
    joinCommand.hidden = false;
    fill(
      joinCommand,
      h('p', {}, 'Waiting for a joiner. From a terminal:'),
      h('pre', { dataset: { testid: 'join-cli' }, text: command }),
      h('p', {}, 'or in another lab: Match › Join with ', h('code', { dataset: { testid: 'join-url' }, text: event.url })),
      h('button', { type: 'button', class: 'ghost', text: 'Copy the command', onclick: () => void navigator.clipboard?.writeText(command).catch(() => undefined) }),
    );
  }

  hostForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const request: HostRequest = {
      name: host.name.value.trim(),
      player: host.player.value.trim(),
      script: host.script.value,
      rounds: Number(host.rounds.value),
      sizes: host.sizes.value.trim() || null,
      disclosure: host.disclosure.value as 'full' | 'recording',
    };
    void guarded(async () => {
      const started = await postJSON<JobStarted>('/api/matches/host', request);
      host.submit.disabled = true;
      fill(hostResult);
      hostJob.follow(started.id, {
        onEvent: listening,
        onDone: (data) => fill(hostResult, outcomeView(data as unknown as MatchOutcome)),
        onEnd: () => {
          host.submit.disabled = false;
          joinCommand.hidden = true;
          host.name.value = `match-host-${stamp()}`;
        },
      });
    });
  });

  joinForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const request: JoinRequest = {
      url: join.url.value.trim(),
      name: join.name.value.trim(),
      player: join.player.value.trim(),
      script: join.script.value,
      size: join.size.value.trim() || null,
    };
    void guarded(async () => {
      const started = await postJSON<JobStarted>('/api/matches/join', request);
      join.submit.disabled = true;
      fill(joinResult);
      joinJob.follow(started.id, {
        onDone: (data) => fill(joinResult, outcomeView(data as unknown as MatchOutcome)),
        onEnd: () => {
          join.submit.disabled = false;
          join.name.value = `match-join-${stamp()}`;
        },
      });
    });
  });

  void guarded(async () => {
    const list: ScriptList = await scriptList(true);
    host.script.replaceWith((host.script = scriptSelect(list, list.starter, 'script')));
    join.script.replaceWith((join.script = scriptSelect(list, list.starter, 'script')));
  });

  const element = h(
    'section',
    { class: 'page match-page' },
    h('div', { class: 'page-head' }, h('h1', { text: 'Match' }), h('span', { class: 'muted', text: 'two players, two machines, one verified game (docs/matches.md)' })),
    h('div', { class: 'two-col' }, hostForm, joinForm),
  );
  return {
    element,
    dispose() {
      hostJob.dispose();
      joinJob.dispose();
    },
  };
}
