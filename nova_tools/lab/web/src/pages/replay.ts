// The replay viewer: the board at the cursor, a round scrubber (play, pause, speed, turn by turn),
// the scores with their contributors, the score chart, the inspector and the round's events.
// Every fact comes from the lab's endpoints; this page only keeps the cursor.

import { Board } from '../board/board';
import { same } from '../board/events';
import type { Selection } from '../board/state';
import { LineChart } from '../chart';
import { BUILDING_LETTERS, GLYPH, GROUND_COLOURS, MATERIAL_LETTERS, seatColour } from '../colours';
import { h } from '../dom';
import { type Frame, decodeTimeline } from '../frames';
import type { Rules, Timeline } from '../generated/api';
import { gameUrl, getJSON, query } from '../http';
import { guarded, showProblem } from '../notify';
import { EventsPanel } from '../replay/events';
import { Inspector } from '../replay/inspector';
import { renderScores } from '../replay/scores';
import type { Page, PageContext } from './page';

const SPEEDS = [1, 2, 4, 8, 16, 32]; // rounds per second

interface TurnView {
  round: number;
  baseIndex: number; // the whole timeline's frame the round starts from
  frames: Frame[]; // after each turn of the round
  fog: Frame[] | null;
  at: number;
}

function legend(): HTMLElement {
  const swatch = (colour: string, shape: string) => h('i', { class: `legend-mark ${shape}`, style: `background:${colour}` });
  return h(
    'details',
    { class: 'legend' },
    h('summary', { text: 'Legend' }),
    h(
      'div',
      {},
      h('span', {}, swatch(GLYPH.fill, 'square'), 'o: ore in the ground'),
      h('span', {}, swatch(GLYPH.fill, 'round'), 'w: water'),
      h('span', {}, swatch(GROUND_COLOURS.acid!, 'square'), 'acid (tint, strength bottom right)'),
      h('span', {}, swatch(GROUND_COLOURS.radiation!, 'hatch'), 'radiation (hatched)'),
      h('span', {}, swatch(GLYPH.fill, 'diamond'), `loose material: ${Object.entries(MATERIAL_LETTERS).map(([material, letter]) => `${letter} ${material}`).join(' · ')}`),
      h('span', {}, 'black, hatched: fog (not seen by the player whose view this is)'),
      h('span', {}, Object.entries(BUILDING_LETTERS).map(([type, letter]) => `${letter} ${type}`).join(' · ')),
      h('span', {}, 'dashed: construction site (bar: material paid) · double frame: initial charger'),
      h('span', {}, 'circle: android in its owner\'s colour, ring: battery · ✕: wreck'),
    ),
  );
}

function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLInputElement && target.type !== 'range' ? true : target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

export function replayPage(context: PageContext): Page {
  const name = context.args[0] ?? '';
  let frames: Frame[] = [];
  let timeline: Timeline | null = null;
  const fogFrames = new Map<string, Frame[]>();
  let fog: string | null = null;
  let index = 0;
  let turns: TurnView | null = null;
  let selection: Selection | null = null;
  let speed = 4;
  let timer = 0;
  const colours = new Map<string, string>();

  // --- elements --------------------------------------------------------------------------------
  const canvas = h('canvas', { class: 'board', role: 'img', 'aria-label': `the board of ${name}`, tabindex: 0 });
  const board = new Board(canvas, (picked) => select(picked));
  const range = h('input', { type: 'range', min: 0, max: 0, value: 0, step: 1, 'aria-label': 'round', class: 'scrubber-range' });
  const where = h('span', { class: 'where', 'aria-live': 'polite' });
  const play = h('button', { type: 'button', class: 'play', title: 'play / pause (space)', text: '▶' });
  const speedSelect = h('select', { 'aria-label': 'speed', title: 'rounds per second' }, ...SPEEDS.map((s) => h('option', { value: s, text: `${s} r/s` })));
  speedSelect.value = String(speed);
  const button = (label: string, title: string, action: () => void) => h('button', { type: 'button', class: 'ghost', title, text: label, onclick: action });
  const fogSelect = h('select', { 'aria-label': 'view', class: 'fog' }, h('option', { value: '', text: 'the whole board' }));
  const wrecks = h('input', { type: 'checkbox', checked: true, 'aria-label': 'show wrecks' });
  const scoresBody = h('tbody');
  const scoresTitle = h('h2', { text: 'Scores' });
  const chartCanvas = h('canvas', { class: 'chart', 'aria-label': 'score chart: click to move the cursor' });
  const chart = new LineChart(chartCanvas, (at) => seek(at));
  const inspector = new Inspector((picked) => select(picked));
  const events = new EventsPanel(name);
  const eventsTitle = h('h2', { text: 'Events' });
  const info = h('span', { class: 'muted' });

  const element = h(
    'section',
    { class: 'page replay-page', dataset: { game: name, loaded: 'no' } },
    h(
      'div',
      { class: 'page-head' },
      h('h1', { text: name }),
      info,
      h('label', { class: 'inline' }, 'View ', fogSelect),
      h('label', { class: 'inline' }, wrecks, ' wrecks'),
    ),
    h(
      'div',
      { class: 'replay-grid' },
      h(
        'div',
        { class: 'board-col' },
        canvas,
        h(
          'div',
          { class: 'scrubber' },
          button('|◀', 'first round (Home)', () => seek(0)),
          button('‹‹', 'previous turn (,)', () => void stepTurn(-1)),
          button('◀', 'previous round (←)', () => step(-1)),
          play,
          button('▶', 'next round (→)', () => step(1)),
          button('››', 'next turn (.)', () => void stepTurn(1)),
          button('▶|', 'last round (End)', () => seek(frames.length - 1)),
          range,
          speedSelect,
        ),
        h('div', { class: 'scrubber-foot' }, where, h('span', { class: 'keys muted', text: '←/→ round · ,/. turn · space play · f view · esc clear' })),
        legend(),
      ),
      h(
        'div',
        { class: 'side-col' },
        h('section', { class: 'panel scores-panel' }, scoresTitle, h('table', { class: 'scores-table' }, scoresBody)),
        h('section', { class: 'panel chart-panel' }, h('h2', { text: 'Score over the rounds' }), chartCanvas),
        h('section', { class: 'panel inspector' }, h('h2', { text: 'Inspector' }), inspector.element),
        h('section', { class: 'panel events-panel' }, eventsTitle, events.list),
      ),
    ),
  );

  // --- what is shown ---------------------------------------------------------------------------
  function current(): { frame: Frame; fogged: Frame | null } {
    if (turns) {
      return { frame: turns.frames[turns.at]!, fogged: turns.fog ? (turns.fog[turns.at] ?? null) : null };
    }
    const frame = frames[index]!;
    return { frame, fogged: fog ? (fogFrames.get(fog)?.[index] ?? null) : null };
  }

  function show(): void {
    if (!timeline || frames.length === 0) return;
    const { frame, fogged } = current();
    board.set({ width: timeline.width, height: timeline.height, frame, fog: fogged, selected: selection, colours, showWrecks: wrecks.checked });
    range.value = String(index);
    const turnText = turns ? ` · turn ${turns.at + 1} of ${turns.frames.length}` : '';
    const setup = !turns && index > 0 && frames[index - 1]!.round === frame.round ? ' · after setup' : '';
    where.textContent = `Round ${frame.round} of ${timeline.lastRound}${turnText}${setup}`;
    where.dataset.round = String(frame.round);
    scoresTitle.textContent = `Scores at round ${frame.round}${turns ? `, turn ${turns.at + 1}` : ''}`;
    renderScores(scoresBody, frame.players, colours);
    chart.setCursor(turns ? turns.baseIndex : index);
    eventsTitle.textContent = `Events of round ${frame.round}`;
    events.show(frame.round, turns ? turns.at + 1 : null, showProblem, fog);
    refreshInspector();
    rememberPlace(frame.round);
  }

  // the address keeps the round and the view (to share a position), at most a few times a second:
  // browsers throttle pages that rewrite their address on every frame
  let placeTimer = 0;
  function rememberPlace(round: number): void {
    window.clearTimeout(placeTimer);
    placeTimer = window.setTimeout(() => {
      history.replaceState(null, '', `#/replay/${encodeURIComponent(name)}${query({ round, view: fog })}`);
    }, 300);
  }

  let inspectorTimer = 0;
  function refreshInspector(): void {
    window.clearTimeout(inspectorTimer);
    inspectorTimer = window.setTimeout(() => {
      const { frame, fogged } = current();
      void guarded(() => inspector.show(selection, { game: name, frame: fogged ?? frame, width: timeline?.width ?? 1, player: fog }));
    }, 120);
  }

  function select(picked: Selection | null): void {
    selection = picked && selection && same(picked, selection) && picked.kind === 'tile' ? null : picked;
    board.set({ selected: selection });
    refreshInspector();
  }

  // --- moving the cursor -----------------------------------------------------------------------
  function seek(at: number): void {
    turns = null;
    index = Math.max(0, Math.min(frames.length - 1, at));
    show();
  }

  function step(delta: number): void {
    if (turns) {
      // leave the turns: forward to the round's end, back to where the round started
      const round = turns.round;
      const base = turns.baseIndex;
      turns = null;
      if (delta > 0) seek(frames.findIndex((f) => f.round === round));
      else seek(base);
      return;
    }
    seek(index + delta);
  }

  async function turnsOf(round: number, baseIndex: number): Promise<TurnView | null> {
    const url = gameUrl(name, 'timeline');
    const whole = await getJSON<Timeline>(url + query({ round }));
    const turnFrames = decodeTimeline(whole, frames[baseIndex]).filter((f) => f.turn !== null);
    if (turnFrames.length === 0) return null;
    let fogTurns: Frame[] | null = null;
    if (fog) {
      const seen = await getJSON<Timeline>(url + query({ round, player: fog }));
      fogTurns = decodeTimeline(seen, fogFrames.get(fog)?.[baseIndex]).filter((f) => f.turn !== null);
    }
    return { round, baseIndex, frames: turnFrames, fog: fogTurns, at: 0 };
  }

  async function stepTurn(delta: 1 | -1): Promise<void> {
    stopPlaying();
    if (turns) {
      const at = turns.at + delta;
      if (at >= 0 && at < turns.frames.length) {
        turns.at = at;
        show();
      } else {
        step(delta);
      }
      return;
    }
    const here = frames[index]!;
    const round = delta > 0 ? here.round + 1 : here.round;
    if (round < 1 || !timeline || round > timeline.lastRound) return;
    // the frame the round starts from: the last one before the round's first turn
    let baseIndex = -1;
    frames.forEach((f, i) => {
      if (f.round === round - 1) baseIndex = i;
    });
    if (baseIndex < 0) return;
    const view = await guarded(() => turnsOf(round, baseIndex));
    if (!view) {
      if (delta > 0) seek(frames.findIndex((f) => f.round === round));
      else seek(baseIndex);
      return;
    }
    view.at = delta > 0 ? 0 : view.frames.length - 1;
    turns = view;
    show();
  }

  function stopPlaying(): void {
    window.clearInterval(timer);
    timer = 0;
    play.textContent = '▶';
    element.dataset.playing = 'no';
  }

  function togglePlay(): void {
    if (timer) {
      stopPlaying();
      return;
    }
    if (index >= frames.length - 1) seek(0);
    play.textContent = '⏸';
    element.dataset.playing = 'yes';
    timer = window.setInterval(() => {
      if (index >= frames.length - 1) stopPlaying();
      else seek(index + 1);
    }, 1000 / speed);
  }

  function setSpeed(next: number): void {
    speed = next;
    speedSelect.value = String(speed);
    if (timer) {
      stopPlaying();
      togglePlay();
    }
  }

  async function setFog(player: string | null): Promise<void> {
    if (player && !fogFrames.has(player)) {
      const seen = await guarded(() => getJSON<Timeline>(gameUrl(name, 'timeline') + query({ player })));
      if (!seen) {
        fogSelect.value = fog ?? '';
        return;
      }
      fogFrames.set(player, decodeTimeline(seen));
    }
    fog = player;
    fogSelect.value = fog ?? '';
    turns = null;
    show();
  }

  // --- input -----------------------------------------------------------------------------------
  range.addEventListener('input', () => seek(Number(range.value)));
  play.addEventListener('click', togglePlay);
  speedSelect.addEventListener('change', () => setSpeed(Number(speedSelect.value)));
  fogSelect.addEventListener('change', () => void setFog(fogSelect.value || null));
  wrecks.addEventListener('change', () => board.set({ showWrecks: wrecks.checked }));

  function onKey(event: KeyboardEvent): void {
    if (typing(event.target) || event.altKey || event.ctrlKey || event.metaKey || frames.length === 0) return;
    const big = event.shiftKey ? 10 : 1;
    const actions: Record<string, () => void> = {
      ArrowRight: () => step(big),
      ArrowLeft: () => step(-big),
      ArrowUp: () => step(-big),
      ArrowDown: () => step(big),
      '.': () => void stepTurn(1),
      ',': () => void stepTurn(-1),
      ' ': togglePlay,
      Home: () => seek(0),
      End: () => seek(frames.length - 1),
      '+': () => setSpeed(SPEEDS[Math.min(SPEEDS.length - 1, SPEEDS.indexOf(speed) + 1)]!),
      '-': () => setSpeed(SPEEDS[Math.max(0, SPEEDS.indexOf(speed) - 1)]!),
      f: () => {
        const options = ['', ...colours.keys()];
        const next = options[(options.indexOf(fog ?? '') + 1) % options.length]!;
        void setFog(next || null);
      },
      Escape: () => select(null),
    };
    const action = actions[event.key];
    if (action) {
      event.preventDefault();
      if (event.key !== ' ') stopPlaying();
      action();
    }
  }
  document.addEventListener('keydown', onKey);

  // --- loading ---------------------------------------------------------------------------------
  void guarded(async () => {
    const [loaded, rules] = await Promise.all([getJSON<Timeline>(gameUrl(name, 'timeline')), getJSON<Rules>(gameUrl(name, 'rules'))]);
    timeline = loaded;
    frames = decodeTimeline(loaded);
    const last = frames[frames.length - 1];
    for (const player of [...(last?.players ?? [])].sort((a, b) => a.seat - b.seat)) {
      colours.set(player.id, seatColour(player.seat));
      fogSelect.appendChild(h('option', { value: player.id, text: `as ${player.id} saw it` }));
    }
    board.set({ scales: { battery: rules.android.batteryCapacity, health: rules.android.maxHealth } });
    info.textContent = `${loaded.width}x${loaded.height} · ${loaded.lastRound} rounds${loaded.finalTurn ? ` · humans land on round ${loaded.finalTurn}` : ''}`;
    range.max = String(frames.length - 1);
    const rounds = frames.map((f) => f.round);
    chart.setData(
      [...colours.keys()].map((id) => ({ id, colour: colours.get(id)!, values: frames.map((f) => f.players.find((p) => p.id === id)?.score ?? 0) })),
      rounds,
    );
    const wanted = context.query.get('round');
    let start = frames.length - 1;
    if (wanted !== null) {
      const at = rounds.lastIndexOf(Number(wanted));
      if (at >= 0) start = at;
    }
    index = start;
    const view = context.query.get('view');
    if (view && colours.has(view)) await setFog(view);
    show();
    element.dataset.loaded = 'yes';
    performance.mark('nova-replay-loaded'); // bench/lab_bench.py reads it: the open, as the browser timed it
    canvas.focus();
  });

  return {
    element,
    dispose() {
      stopPlaying();
      window.clearTimeout(placeTimer);
      document.removeEventListener('keydown', onKey);
      board.dispose();
    },
  };
}
