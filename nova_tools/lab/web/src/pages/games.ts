// The games under the root: name, round (and the arrival), board, players with their scores.

import { seatColour } from '../colours';
import { fill, h, points } from '../dom';
import type { GameList, GameListing } from '../generated/api';
import { getJSON } from '../http';
import { guarded } from '../notify';
import { type Page, type PageContext, replayHash } from './page';

function when(seconds: number): string {
  return new Date(seconds * 1000).toLocaleString();
}

function scores(game: GameListing): HTMLElement {
  const players = [...(game.status?.players ?? [])].sort((a, b) => b.score - a.score);
  const seats = game.summary?.players ?? players.map((p) => p.id);
  return h(
    'span',
    { class: 'scores' },
    ...players.map((p) =>
      h('span', { class: 'score-chip', dataset: { player: p.id } }, h('i', { class: 'swatch', style: `background:${seatColour(Math.max(0, seats.indexOf(p.id)))}` }), `${p.id} ${points(p.score)}`),
    ),
  );
}

function row(game: GameListing, context: PageContext): HTMLElement {
  const summary = game.summary;
  const status = game.status;
  const open = game.kind === 'game' ? () => context.go(replayHash(game.name)) : null;
  const round = status ? `${status.round}${status.finalTurn ? ` / ${status.finalTurn}` : ''}` : '';
  const note =
    game.kind === 'unreadable'
      ? h('span', { class: 'problem-text', text: game.problem ?? 'cannot be read' })
      : game.kind === 'record'
        ? h('span', { class: 'muted', text: 'match record (disclosure: recording): final scores only' })
        : summary
          ? `${summary.width}x${summary.height}, ${summary.activeAndroids} active androids`
          : '';
  const name = open ? h('a', { href: replayHash(game.name), text: game.name }) : h('span', { text: game.name });
  return h(
    'tr',
    { class: open ? 'clickable' : 'disabled', dataset: { game: game.name, kind: game.kind }, onclick: (event: Event) => {
      if (open && !(event.target instanceof HTMLAnchorElement)) open();
    } },
    h('td', {}, name),
    h('td', { class: 'num', text: round }),
    h('td', {}, status ? scores(game) : ''),
    h('td', {}, note),
    h('td', { class: 'muted', text: when(game.modified) }),
  );
}

export function gamesPage(context: PageContext): Page {
  const body = h('tbody');
  const table = h(
    'table',
    { class: 'games' },
    h('thead', {}, h('tr', {}, h('th', { text: 'Game' }), h('th', { class: 'num', text: 'Round' }), h('th', { text: 'Scores' }), h('th', { text: '' }), h('th', { text: 'Modified' }))),
    body,
  );
  const empty = h('p', { class: 'muted', hidden: true }, `No games in ${context.info.root} yet. Play one in the `, h('a', { href: '#/run', text: 'Run panel' }), ', or `nova demo --dir` this folder.');
  const refresh = h('button', { type: 'button', class: 'ghost', text: 'Refresh' });
  const load = () =>
    guarded(async () => {
      const list = await getJSON<GameList>('/api/games');
      fill(body, ...list.games.map((game) => row(game, context)));
      empty.hidden = list.games.length > 0;
      table.hidden = list.games.length === 0;
    });
  refresh.addEventListener('click', () => void load());
  void load();
  const element = h(
    'section',
    { class: 'page games-page' },
    h('div', { class: 'page-head' }, h('h1', { text: 'Games' }), h('span', { class: 'muted', text: context.info.root }), refresh),
    table,
    empty,
  );
  return { element };
}
