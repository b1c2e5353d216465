// What a click on the board opens: an android (battery, health, cargo, memory, recording, its last
// action with the outcome and reason code, all read from the api at that moment), or a tile.

import { fill, h, materials, points } from '../dom';
import { type Frame, androidsAt, buildingAt } from '../frames';
import type { AndroidMoment, BuildingState } from '../generated/api';
import { gameUrl, getJSON, query } from '../http';
import type { Selection } from '../board/state';
import { actionWords } from './events';

export interface Moment {
  game: string;
  frame: Frame;
  width: number;
  player: string | null; // a fogged view: read as that player may
}

function row(label: string, value: string | HTMLElement, field?: string): HTMLElement {
  return h('tr', {}, h('th', { text: label }), h('td', { dataset: field ? { field } : {} }, value));
}

function note(text: string, field: string): HTMLElement {
  return h('pre', { class: 'note', dataset: { field } }, text || '(empty)');
}

function buildingRows(building: BuildingState): HTMLElement[] {
  return [
    row('building', `${building.type} of ${building.ownerId}${building.initial ? ' (initial)' : ''}`, 'building'),
    row('state', building.complete ? 'complete' : `construction site: ${building.remainingTicks} tick(s) left, owes ${materials(building.owed)}`, 'building-state'),
    row('health', points(building.health)),
    row('invested', materials(building.invested)),
    row('storage', materials(building.storage), 'storage'),
  ];
}

export class Inspector {
  readonly element = h('div', { class: 'inspector-body' });
  private ticket = 0;

  constructor(private readonly onSelect: (selection: Selection) => void) {}

  async show(selection: Selection | null, moment: Moment): Promise<void> {
    const ticket = ++this.ticket;
    if (selection === null) {
      this.overview(moment.frame);
    } else if (selection.kind === 'tile') {
      this.tile(selection.x, selection.y, moment);
    } else {
      const { frame, game, player } = moment;
      if (player !== null && !frame.androids.has(selection.id)) {
        fill(this.element, h('h3', { text: selection.id }), h('p', { class: 'muted', text: `not in ${player}'s sight at this moment` }));
        return;
      }
      const url = gameUrl(game, 'androids', selection.id) + query({ round: frame.round, turn: frame.turn, player });
      const android = await getJSON<AndroidMoment>(url);
      if (ticket === this.ticket) this.android(android);
    }
  }

  private overview(frame: Frame): void {
    const androids = [...frame.androids.values()].sort((a, b) => Number(b.active) - Number(a.active));
    fill(
      this.element,
      h('p', { class: 'muted', text: 'Click a tile or an android on the board (or one below).' }),
      h(
        'ul',
        { class: 'android-list' },
        ...androids.map((a) =>
          h(
            'li',
            {},
            h('button', { type: 'button', class: 'link', dataset: { android: a.id }, onclick: () => this.onSelect({ kind: 'android', id: a.id }) }, a.id),
            ` ${a.ownerId} · ${a.active ? `battery ${points(a.battery)} · health ${points(a.health)}` : 'wreck'}`,
          ),
        ),
      ),
    );
  }

  private tile(x: number, y: number, { frame, width }: Moment): void {
    const tile = frame.tiles.get(y * width + x);
    const building = buildingAt(frame, x, y);
    const here = androidsAt(frame, x, y);
    fill(
      this.element,
      h('h3', { text: `Tile (${x}, ${y})` }),
      h(
        'table',
        { class: 'facts' },
        row('ground', tile ? materials(tile.composition) : 'nothing known', 'composition'),
        row('loose', tile ? materials(tile.scattered) : 'none', 'scattered'),
        tile && tile.revealedBy.length ? row('seen by', tile.revealedBy.join(', ')) : null,
        ...(building ? buildingRows(building) : [row('building', 'none')]),
      ),
      here.length
        ? h(
            'ul',
            { class: 'android-list' },
            ...here.map((a) => h('li', {}, h('button', { type: 'button', class: 'link', onclick: () => this.onSelect({ kind: 'android', id: a.id }) }, a.id), ` ${a.ownerId}${a.active ? '' : ' (wreck)'}`)),
          )
        : null,
    );
  }

  private android(android: AndroidMoment): void {
    const last = android.lastTurn;
    const lastAction = last
      ? h(
          'div',
          { class: `last-turn ${last.outcome}`, dataset: { field: 'last-turn', outcome: last.outcome, code: last.code ?? '' } },
          h('div', {}, `round ${last.round}: `, h('b', { text: actionWords(last.action ?? undefined) })),
          h('div', {}, 'outcome ', h('b', { dataset: { field: 'outcome' }, text: last.outcome }), last.code ? h('span', {}, ' · code ', h('code', { dataset: { field: 'code' }, text: last.code })) : null),
          last.reason ? h('div', { class: 'reason', dataset: { field: 'reason' }, text: last.reason }) : null,
        )
      : h('span', { class: 'muted', text: 'no turn yet' });
    fill(
      this.element,
      h('h3', { dataset: { android: android.id } }, `${android.id} `, h('span', { class: 'muted', text: `of ${android.ownerId}, ${android.active ? 'active' : 'wreck'}` })),
      h(
        'table',
        { class: 'facts' },
        row('battery', points(android.battery), 'battery'),
        row('health', points(android.health), 'health'),
        row('position', `(${android.position.x}, ${android.position.y})`, 'position'),
        row('cargo', materials(android.cargo), 'cargo'),
        row('script', android.scriptId),
        row('last action', lastAction),
      ),
      h('h4', { text: `memory (${android.memory.length} chars)` }),
      note(android.memory, 'memory'),
      h('h4', { text: `recording (${android.recording.length} chars)` }),
      note(android.recording, 'recording'),
    );
  }
}
