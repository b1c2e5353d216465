// The lab's page: a header with the pages, and the page the address names (#/games, #/replay/NAME,
// #/run, #/match, #/arena, #/league/NAME).

import { fill, h } from './dom';
import type { LabInfo } from './generated/api';
import { getJSON } from './http';
import { clearProblem, showProblem } from './notify';
import { arenaPage } from './pages/arena';
import { gamesPage } from './pages/games';
import { leaguePage } from './pages/league';
import { matchPage } from './pages/match';
import type { Page, PageFactory } from './pages/page';
import { replayPage } from './pages/replay';
import { runPage } from './pages/run';

const PAGES: Record<string, PageFactory> = { games: gamesPage, replay: replayPage, run: runPage, match: matchPage, arena: arenaPage, league: leaguePage };
const NAV: [string, string][] = [
  ['games', 'Games'],
  ['run', 'Run'],
  ['match', 'Match'],
  ['arena', 'Arena'],
  ['league', 'League'],
];

let current: Page | null = null;

function parse(hash: string): { page: string; args: string[]; query: URLSearchParams } {
  const [path = '', search = ''] = hash.replace(/^#\/?/, '').split('?');
  const [page = 'games', ...args] = path.split('/').filter(Boolean).map(decodeURIComponent);
  return { page, args, query: new URLSearchParams(search) };
}

function start(info: LabInfo): void {
  const main = document.getElementById('page')!;
  const links = NAV.map(([page, label]) => h('a', { href: `#/${page}`, dataset: { page }, text: label }));
  fill(
    document.getElementById('nav')!,
    ...links,
  );
  // the folder's name (the Games page shows the whole path; hovering shows it here)
  const rootLabel = document.getElementById('root')!;
  rootLabel.textContent = info.root.split(/[\\/]/).filter(Boolean).pop() ?? info.root;
  rootLabel.title = info.root;
  const go = (hash: string) => {
    if (location.hash === hash) route();
    else location.hash = hash;
  };
  function route(): void {
    const { page, args, query } = parse(location.hash);
    const factory = PAGES[page] ?? gamesPage;
    current?.dispose?.();
    clearProblem();
    current = factory({ info, args, query, go });
    fill(main, current.element);
    for (const link of links) link.classList.toggle('active', link.dataset.page === (page === 'replay' ? 'games' : page));
    document.title = page === 'replay' && args[0] ? `${args[0]} · Nova lab` : 'Nova lab';
  }
  window.addEventListener('hashchange', route);
  route();
}

getJSON<LabInfo>('/api/lab').then(start, showProblem);
