// The leagues in the root (#/league) and one league (#/league/NAME[?entry=E]): its table, best
// first, with each entry's record against the others, and the games of the entry picked.

import { fill, h, points } from '../dom';
import type { LeagueGames, LeagueList, LeagueStanding, LeagueSummary, LeagueTable } from '../generated/api';
import { getJSON, query } from '../http';
import { guarded } from '../notify';
import type { Page, PageContext } from './page';

function leagueHash(name: string, entry?: string): string {
  return `#/league/${encodeURIComponent(name)}${entry ? `?entry=${encodeURIComponent(entry)}` : ''}`;
}

function mean(value: number | null | undefined): string {
  return value === null || value === undefined ? '-' : points(Math.round(value * 100) / 100);
}

function listRow(league: LeagueSummary, context: PageContext): HTMLElement {
  const open = league.problem ? null : () => context.go(leagueHash(league.name));
  return h(
    'tr',
    { class: open ? 'clickable' : 'disabled', dataset: { league: league.name }, onclick: () => open?.() },
    h('td', {}, open ? h('a', { href: leagueHash(league.name), text: league.name }) : league.name),
    h('td', { class: 'num', text: league.problem ? '' : String(league.entries) }),
    h('td', { class: 'num', text: league.problem ? '' : String(league.games) }),
    h('td', {}, league.problem ? h('span', { class: 'problem-text', text: league.problem }) : ''),
  );
}

function leaguesPage(context: PageContext): Page {
  const body = h('tbody');
  const table = h(
    'table',
    { class: 'games leagues' },
    h('thead', {}, h('tr', {}, h('th', { text: 'League' }), h('th', { class: 'num', text: 'Entries' }), h('th', { class: 'num', text: 'Games' }), h('th', { text: '' }))),
    body,
  );
  const empty = h('p', { class: 'muted', hidden: true }, `No leagues in ${context.info.root} yet: `, h('code', { text: 'nova league add --league NAME.league bot-v1 bot.ts' }), ' there makes one.');
  void guarded(async () => {
    const list = await getJSON<LeagueList>('/api/leagues');
    fill(body, ...list.leagues.map((league) => listRow(league, context)));
    empty.hidden = list.leagues.length > 0;
    table.hidden = list.leagues.length === 0;
  });
  return { element: h('section', { class: 'page league-page' }, h('div', { class: 'page-head' }, h('h1', { text: 'Leagues' })), table, empty) };
}

function standingRow(name: string, s: LeagueStanding, picked: boolean, context: PageContext): HTMLElement {
  return h(
    'tr',
    { class: `clickable${picked ? ' picked' : ''}`, dataset: { entry: s.name }, onclick: () => context.go(leagueHash(name, s.name)) },
    h('td', { class: 'num', text: String(s.rank) }),
    h('td', {}, h('a', { href: leagueHash(name, s.name), text: s.name })),
    h('td', { class: 'num rating', text: s.rating.toFixed(2) }),
    h('td', { class: 'num', text: `± ${s.sigma.toFixed(2)}` }),
    h('td', { class: 'num', text: String(s.games) }),
    h('td', { class: 'num', text: String(s.wins) }),
    h('td', { class: 'num', text: String(s.draws) }),
    h('td', { class: 'num', text: String(s.losses) }),
    h('td', { class: 'num', text: mean(s.meanScore) }),
    h('td', { class: 'muted', text: s.source }),
  );
}

function headToHead(table: LeagueTable): HTMLElement {
  const names = table.entries.map((e) => e.name);
  return h(
    'table',
    { class: 'games head-to-head' },
    h('thead', {}, h('tr', {}, h('th', { text: 'wins-draws-losses against' }), ...names.map((n) => h('th', { class: 'num', text: n })))),
    h(
      'tbody',
      {},
      ...table.entries.map((e) => {
        const against = new Map(e.against.map((a) => [a.opponent, a]));
        return h(
          'tr',
          { dataset: { entry: e.name } },
          h('th', { text: e.name }),
          ...names.map((n) => {
            const a = against.get(n);
            return h('td', { class: 'num', text: a ? `${a.wins}-${a.draws}-${a.losses}` : '' });
          }),
        );
      }),
    ),
  );
}

function gamesOf(games: LeagueGames): HTMLElement {
  return h(
    'table',
    { class: 'games entry-games' },
    h('thead', {}, h('tr', {}, h('th', { class: 'num', text: 'Seed' }), h('th', { class: 'num', text: 'Rounds' }), h('th', { text: 'Seat 1' }), h('th', { text: 'Seat 2' }), h('th', { class: 'num', text: 'Scores' }), h('th', { text: 'Winner' }))),
    h(
      'tbody',
      {},
      ...games.games.map((g) =>
        h(
          'tr',
          {},
          h('td', { class: 'num', text: String(g.seed) }),
          h('td', { class: 'num', text: String(g.rounds) }),
          h('td', { text: g.seats[0] ?? '' }),
          h('td', { text: g.seats[1] ?? '' }),
          h('td', { class: 'num', text: g.scores.map(points).join(' - ') }),
          h('td', { text: g.winner ?? 'draw' }),
        ),
      ),
    ),
  );
}

function onePage(context: PageContext, name: string): Page {
  const entry = context.query.get('entry') ?? undefined;
  const body = h('tbody');
  const summary = h('span', { class: 'muted' });
  const pairs = h('div', { class: 'head-to-head-box' });
  const games = h('div', { class: 'entry-games-box' });
  const table = h(
    'table',
    { class: 'games league-table' },
    h(
      'thead',
      {},
      h('tr', {}, ...['#', 'Entry', 'Rating', 'Sigma', 'Games', 'Wins', 'Draws', 'Losses', 'Mean score', 'From'].map((t, i) => h('th', { class: i === 1 || i === 9 ? '' : 'num', text: t }))),
    ),
    body,
  );
  const rating = h('p', { class: 'muted' });
  void guarded(async () => {
    const league = await getJSON<LeagueTable>(`/api/leagues/${encodeURIComponent(name)}`);
    summary.textContent = `${league.entries.length} entries, ${league.games} games`;
    fill(body, ...league.entries.map((s) => standingRow(name, s, s.name === entry, context)));
    rating.textContent = `Rating: ${league.rating}. Play the missing games with nova league play --league ${name}.league.`;
    fill(pairs, h('h2', { text: 'Head to head' }), headToHead(league));
    if (entry) {
      const page = await getJSON<LeagueGames>(`/api/leagues/${encodeURIComponent(name)}/games${query({ entry })}`);
      fill(games, h('h2', { text: `Games of ${entry} (${page.total})` }), gamesOf(page));
    } else {
      fill(games, h('p', { class: 'muted', text: 'Click an entry for its games.' }));
    }
  });
  return {
    element: h(
      'section',
      { class: 'page league-page' },
      h('div', { class: 'page-head' }, h('h1', { text: name }), summary, h('a', { href: '#/league', text: 'all leagues' })),
      table,
      rating,
      pairs,
      games,
    ),
  };
}

export function leaguePage(context: PageContext): Page {
  const name = context.args[0];
  return name ? onePage(context, name) : leaguesPage(context);
}
