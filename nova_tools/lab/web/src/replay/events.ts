// The events of the round under the cursor, in words (a failed turn shows its code and reason).

import { fill, h, materials } from '../dom';
import { NOTES, type EventsPage } from '../generated/api';
import { gameUrl, getJSON, query } from '../http';

type Event = Record<string, unknown>;

export function actionWords(action: Record<string, unknown> | undefined): string {
  if (!action) return 'no action';
  const type = String(action.type ?? '?').replace('android.', '');
  const details = Object.entries(action)
    .filter(([key]) => key !== 'type' && !NOTES.includes(key))
    .map(([key, value]) => (typeof value === 'object' && value !== null ? `${key} ${materials(value as Record<string, number>)}` : `${key} ${String(value)}`));
  return details.length ? `${type} (${details.join(', ')})` : type;
}

export function describe(event: Event): string {
  // The api words every event as `nova events` prints it (amounts, damage, why an android fell);
  // the fallback below only serves a server that sends no text.
  if (typeof event.text === 'string') return event.text;
  switch (event.type) {
    case 'turn': {
      const words = `${String(event.android)}: ${actionWords(event.action as Record<string, unknown> | undefined)}`;
      return event.outcome === 'accepted' ? words : `${words} — ${String(event.outcome).toUpperCase()} [${String(event.code)}] ${String(event.reason ?? '')}`;
    }
    case 'round.started':
      return `round ${String(event.round)} starts`;
    case 'round.ended': {
      const destroyed = (event.destroyed as string[] | undefined) ?? [];
      return `round ${String(event.round)} ends${destroyed.length ? `: destroyed ${destroyed.join(', ')}` : ''}`;
    }
    case 'player.joined':
      return `${String(event.player)} joins`;
    case 'script.uploaded':
      return `${String(event.player)} uploads ${String(event.script)}`;
    case 'android.launched':
      return `${String(event.player)} launches ${String(event.android)}`;
    default:
      return Object.entries(event)
        .filter(([key]) => key !== 'index')
        .map(([key, value]) => `${key} ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
        .join(' · ');
  }
}

export class EventsPanel {
  readonly list = h('ol', { class: 'events' });
  private request = 0;
  private timer = 0;

  constructor(private readonly game: string) {}

  /** Show round `round`'s events (after a short pause, so scrubbing does not flood the lab). */
  /** With `player`: only what that player could see (the api decides, as it decides the fog). */
  show(round: number, turn: number | null, onProblem: (error: unknown) => void, player: string | null = null): void {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.load(round, turn, player).catch(onProblem), 150);
  }

  private async load(round: number, turn: number | null, player: string | null): Promise<void> {
    const ticket = ++this.request;
    const asked = player === null ? { round, limit: 500 } : { round, limit: 500, player };
    const page = await getJSON<EventsPage>(gameUrl(this.game, 'events') + query(asked));
    if (ticket !== this.request) return;
    let turnsSeen = 0;
    fill(
      this.list,
      ...page.events.map((event) => {
        const isTurn = event.type === 'turn';
        if (isTurn) turnsSeen += 1;
        const failed = isTurn && event.outcome !== 'accepted';
        const current = turn !== null && isTurn && turnsSeen === turn;
        const later = turn !== null && isTurn && turnsSeen > turn;
        return h('li', { class: [failed ? 'failed' : '', current ? 'current' : '', later ? 'later' : ''].join(' ').trim(), dataset: { type: String(event.type) } }, describe(event));
      }),
    );
    if (page.events.length === 0) this.list.appendChild(h('li', { class: 'muted', text: 'no events this round' }));
    if (page.total > page.events.length) this.list.appendChild(h('li', { class: 'muted', text: `… ${page.total - page.events.length} more (nova events --round ${round})` }));
  }
}
