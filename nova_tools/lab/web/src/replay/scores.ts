// Each player's readiness score at the cursor, with its contributors (the api's breakdown).

import { fill, h, points, sourceName } from '../dom';
import type { FrameScore } from '../generated/api';

export function renderScores(body: HTMLElement, players: FrameScore[], colours: Map<string, string>): void {
  const ranked = [...players].sort((a, b) => b.score - a.score || a.seat - b.seat);
  fill(
    body,
    ...ranked.map((player) =>
      h(
        'tr',
        { dataset: { player: player.id, score: String(player.score) } },
        h('td', {}, h('i', { class: 'swatch', style: `background:${colours.get(player.id) ?? '#ccc'}` })),
        h('td', { class: 'player', text: player.id }),
        h('td', { class: 'num score', dataset: { field: 'score' }, text: points(player.score) }),
        h(
          'td',
          { class: 'breakdown' },
          player.breakdown.length === 0
            ? h('span', { class: 'muted', text: 'nothing scores yet' })
            : h(
                'ul',
                {},
                ...player.breakdown.map((line) =>
                  h('li', { dataset: { source: line.source, points: String(line.points) } }, `${sourceName(line.source)} `, h('b', { text: points(line.points) })),
                ),
              ),
        ),
      ),
    ),
  );
}
