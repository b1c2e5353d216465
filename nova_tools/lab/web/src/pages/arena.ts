// The Arena: `nova compare` (two scripts, every seed in both seat orders) or `nova tournament`
// (every pair), played by the lab; the results table, and charts of the scores per seed and of the
// ranking.

import { type Bar, drawBars } from '../chart';
import { seatColour } from '../colours';
import { fill, h, labelled, points } from '../dom';
import type { ArenaRequest, CompareOutcome, JobStarted, RankedScript, ScriptList, ScriptTotals, TournamentOutcome } from '../generated/api';
import { postJSON } from '../http';
import { JobBox } from '../jobs';
import { guarded } from '../notify';
import { scriptList, scriptSelect } from '../scripts';
import type { Page } from './page';

type ArenaOutcome = CompareOutcome | TournamentOutcome;
type ArenaScript = ScriptTotals | RankedScript;

const rating = (s: ArenaScript): number => ('rating' in s ? s.rating : 0);
const sigma = (s: ArenaScript): number => ('sigma' in s ? s.sigma : 0);

function scriptsTable(rows: readonly ArenaScript[], ranked: boolean): HTMLElement {
  const head = ['Script', 'Games', 'Wins', 'Draws', 'Losses', 'Mean score', 'Mean by seat', 'Failed turns', ...(ranked ? ['Rating', 'σ'] : [])];
  return h(
    'table',
    { class: 'arena-table', dataset: { testid: 'arena-scripts' } },
    h('thead', {}, h('tr', {}, ...head.map((text) => h('th', { text })))),
    h(
      'tbody',
      {},
      ...rows.map((s) =>
        h(
          'tr',
          { dataset: { script: s.name } },
          h('td', { text: s.name }),
          h('td', { class: 'num', text: s.games }),
          h('td', { class: 'num', dataset: { field: 'wins' }, text: s.wins }),
          h('td', { class: 'num', text: s.draws }),
          h('td', { class: 'num', text: s.losses }),
          h('td', { class: 'num', dataset: { field: 'mean' }, text: s.meanScore === null ? '-' : points(s.meanScore) }),
          h('td', { class: 'num', text: s.seatMeanScores.map((m) => (m === null ? '-' : points(m))).join(' / ') }),
          h('td', { class: 'num', text: s.failedTurns }),
          ...(ranked ? [h('td', { class: 'num', text: points(rating(s)) }), h('td', { class: 'num', text: points(sigma(s)) })] : []),
        ),
      ),
    ),
  );
}

function outcomeView(outcome: ArenaOutcome): HTMLElement {
  const compare = outcome.kind === 'compare';
  const scripts: readonly ArenaScript[] = outcome.kind === 'compare' ? outcome.scripts : outcome.ranking;
  const difference = outcome.kind === 'compare' ? outcome.difference : null;
  const verdict = outcome.kind === 'compare' ? outcome.verdict : null;
  const chart = h('canvas', { class: 'bars', 'aria-label': compare ? 'score difference per seed' : 'ratings' });
  const bars: Bar[] = [];
  if (compare && scripts.length === 2) {
    const [a, b] = [scripts[0]!.name, scripts[1]!.name];
    const bySeed = new Map<number, number[]>();
    for (const game of outcome.results) {
      const aScore = game.scores[game.seats.indexOf(a)] ?? 0;
      const bScore = game.scores[game.seats.indexOf(b)] ?? 0;
      bySeed.set(game.seed, [...(bySeed.get(game.seed) ?? []), aScore - bScore]);
    }
    for (const [seed, differences] of bySeed) {
      const mean = differences.reduce((x, y) => x + y, 0) / differences.length;
      bars.push({ label: `seed ${seed}`, value: mean, colour: mean >= 0 ? seatColour(0) : seatColour(1) });
    }
    if (difference) {
      const d = difference;
      bars.push({ label: 'mean', value: d.mean, low: d.low, high: d.high, colour: '#e8ecf2' });
    }
  } else {
    scripts.forEach((s, i) => bars.push({ label: s.name, value: rating(s), colour: seatColour(i) }));
  }
  const view = h(
    'div',
    { class: 'arena-outcome', dataset: { kind: outcome.kind } },
    verdict ? h('p', { class: 'verdict', dataset: { testid: 'verdict' } }, h('b', { text: verdict })) : null,
    difference
      ? h('p', { class: 'muted', text: `${difference.of}: mean ${points(difference.mean)}, ${Math.round(difference.level * 100)}% interval ${points(difference.low)} to ${points(difference.high)} over ${difference.seeds} seeds` })
      : null,
    scriptsTable(scripts, !compare),
    h('h3', { text: compare ? `${scripts[0]?.name ?? 'A'} − ${scripts[1]?.name ?? 'B'}, per seed (both seat orders averaged)` : 'Ratings (OpenSkill, mu − 3 sigma)' }),
    chart,
    ...outcome.warnings.map((w) => h('p', { class: 'warning', text: w })),
    h(
      'details',
      {},
      h('summary', { text: `${outcome.games} of ${outcome.planned} games, ${outcome.rounds} rounds each, ${points(outcome.timing.seconds)} s ${outcome.timing.where}` }),
      h(
        'table',
        { class: 'arena-games' },
        h('thead', {}, h('tr', {}, h('th', { text: 'Seed' }), h('th', { text: 'Seats' }), h('th', { text: 'Scores' }), h('th', { text: 'Winner' }))),
        h(
          'tbody',
          {},
          ...outcome.results.map((g) => h('tr', {}, h('td', { class: 'num', text: g.seed }), h('td', { text: g.seats.join(' vs ') }), h('td', { text: g.scores.map(points).join(' : ') }), h('td', { text: g.winner ?? 'draw' }))),
        ),
      ),
    ),
  );
  requestAnimationFrame(() => drawBars(chart, bars));
  return view;
}

export function arenaPage(): Page {
  const kind = h('select', { name: 'kind' }, h('option', { value: 'compare', text: 'compare two scripts' }), h('option', { value: 'tournament', text: 'tournament (every pair)' }));
  const rows = h('div', { class: 'seats' });
  const seeds = h('input', { type: 'text', name: 'seeds', value: '1-4', required: true, spellcheck: false });
  const rounds = h('input', { type: 'number', name: 'rounds', value: 100, min: 1, max: 10000, required: true });
  const jobs = h('input', { type: 'number', name: 'jobs', value: 1, min: 1, max: 8, required: true });
  const submit = h('button', { type: 'submit', class: 'primary', text: 'Play' });
  const job = new JobBox('arena-job');
  const result = h('div', { class: 'result', dataset: { testid: 'arena-result' } });
  let list: ScriptList | null = null;

  const addRow = (script: string) => {
    if (!list) return;
    const remove = h('button', { type: 'button', class: 'ghost', title: 'remove', text: '−' });
    const row = h('div', { class: 'seat' }, scriptSelect(list, script, 'script'), remove);
    remove.addEventListener('click', () => {
      if (rows.children.length > 2) row.remove();
    });
    rows.appendChild(row);
  };

  const form = h(
    'form',
    { class: 'card', 'aria-label': 'play many games' },
    labelled('Kind', kind),
    h('h2', { text: 'Scripts' }),
    rows,
    h('button', { type: 'button', class: 'ghost', text: '+ script', onclick: () => rows.children.length < 8 && addRow(list?.starter ?? 'starter') }),
    h('div', { class: 'grid' }, labelled('Seeds', seeds, 'e.g. 1-20 or 1,5,9; each in both seat orders'), labelled('Rounds', rounds), labelled('Worker processes', jobs)),
    h('div', { class: 'actions' }, submit),
  );

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const request: ArenaRequest = {
      kind: kind.value as 'compare' | 'tournament',
      scripts: [...rows.querySelectorAll('select')].map((s) => s.value),
      seeds: seeds.value.trim(),
      rounds: Number(rounds.value),
      jobs: Number(jobs.value),
    };
    void guarded(async () => {
      const started = await postJSON<JobStarted>('/api/arena', request);
      submit.disabled = true;
      fill(result);
      job.follow(started.id, {
        onDone: (data) => fill(result, outcomeView(data as unknown as ArenaOutcome)),
        onEnd: () => {
          submit.disabled = false;
        },
      });
    });
  });

  void guarded(async () => {
    list = await scriptList(true);
    fill(rows);
    addRow(list.starter);
    addRow(list.scripts[0] ?? list.starter);
  });

  const element = h(
    'section',
    { class: 'page arena-page' },
    h('div', { class: 'page-head' }, h('h1', { text: 'Arena' }), h('span', { class: 'muted', text: 'many games on fair (rotational) maps: nova compare / nova tournament' })),
    h('div', { class: 'two-col' }, form, h('div', {}, job.element, result)),
  );
  return { element, dispose: () => job.dispose() };
}
