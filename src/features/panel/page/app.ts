import { errorMessage } from '../../../platform/error-message';
import type { PanelStatus } from '../panel-status-shape';
import { ago, clock, h, table } from './dom';
import './panel.css';
import './narrow.css';
import { RateChart } from './rate-chart';
import { claimParts, mirrorParts, playerParts, sharingParts, stat } from './sections';

const REFRESH_MS = 4000;

/** The owner's panel: fetches `status.json` (relative: FXServer strips `/roster`) and redraws. */
class PanelPage {
  private readonly sections = new Map<string, HTMLElement>();
  private readonly chartHost = h('div', { class: 'chart', id: 'rate-chart' });
  private readonly chart = new RateChart(this.chartHost);
  private readonly search = h('input', {
    type: 'search',
    placeholder: 'Search name, department, rank, callsign…',
    id: 'player-search',
  }) as HTMLInputElement;
  private readonly doctorButton = h(
    'button',
    { type: 'button', id: 'run-doctor' },
    'Run doctor again',
  ) as HTMLButtonElement;
  private readonly header = h('span', { class: 'meta' });
  private last: PanelStatus | null = null;

  constructor(root: HTMLElement) {
    const logout = h(
      'form',
      { method: 'post', action: 'logout' },
      h('button', { class: 'quiet', type: 'submit' }, 'Sign out'),
    );
    root.replaceChildren(h('header', {}, h('h1', {}, 'roster'), this.header, logout), this.main());
    this.search.addEventListener('input', () => this.last && this.renderPlayers(this.last));
    this.doctorButton.addEventListener('click', () => void this.runDoctor());
  }

  private main(): HTMLElement {
    const main = h('main');
    for (const [id, title, wide] of [
      ['health', 'Health', false],
      ['cache', 'Cache', false],
      ['mirror', 'Roster mirror', false],
      ['sharing', 'Shared roster', false],
      ['claims', 'Licenses claimed by several members', false],
      ['rate', 'Rate limits', true],
      ['joins', 'Joins', true],
      ['players', 'Online players', true],
      ['training', 'Training', false],
      ['doctor', 'Doctor', false],
    ] as const) {
      const body = h('div');
      this.sections.set(id, body);
      main.append(h('section', { id, class: wide ? 'wide' : '' }, h('h2', {}, title), body));
    }
    this.sections.get('rate')!.before(this.chartHost);
    this.sections.get('players')!.before(this.search);
    this.sections.get('doctor')!.before(this.doctorButton);
    return main;
  }

  async refresh(): Promise<void> {
    try {
      const response = await fetch('status.json', { cache: 'no-store', credentials: 'same-origin' });
      if (response.status === 401 || response.status === 429) {
        location.reload();
        return;
      }
      if (!response.ok) throw new Error(`status.json answered ${response.status}`);
      this.render((await response.json()) as PanelStatus);
    } catch (error) {
      this.header.textContent = `could not refresh: ${errorMessage(error)}`;
    }
  }

  private render(s: PanelStatus): void {
    this.last = s;
    document.body.dataset.loaded = 'true';
    this.header.textContent = `${s.health.community ?? 'community not verified'} · v${s.version} · updated ${clock(s.generatedAt)}`;
    const now = s.generatedAt;
    const flag = (ok: boolean | null, yes: string, no: string, unknown = 'not yet known') =>
      h(
        'span',
        { class: ok === null ? 'dim' : ok ? 'ok' : 'bad' },
        ok === null ? unknown : ok ? `✓ ${yes}` : `✗ ${no}`,
      );
    const { health, rateLimit: rate, joins, cache } = s;
    this.fill(
      'health',
      h(
        'dl',
        {},
        h('dt', {}, 'key'),
        h('dd', {}, flag(health.keyVerified, 'verified', 'not verified')),
        h('dt', {}, 'community'),
        h('dd', {}, health.community ?? '—'),
        h('dt', {}, 'service'),
        h('dd', {}, flag(health.serviceReachable, 'reachable', 'not answering')),
        health.keySuspended && h('dt', {}, 'key refused'),
        health.keySuspended && h('dd', { class: 'bad' }, health.keySuspended),
        h('dt', {}, 'last error'),
        h(
          'dd',
          {},
          health.lastError
            ? `${health.lastError.message} (${clock(health.lastError.at)}, ${ago(health.lastError.at, now)})`
            : 'none',
        ),
      ),
    );
    this.chart.update(rate);
    this.fill(
      'rate',
      h(
        'div',
        { class: 'stats' },
        stat('left this minute', `${rate.remainingThisMinute} / ${rate.perMinute}`),
        stat('left today', rate.remainingToday === null ? '—' : `${rate.remainingToday} / ${rate.perDay}`),
        stat('429 answers', String(rate.throttledTotal), rate.throttledTotal > 0 ? 'warn' : ''),
        stat('requests sent', String(rate.requestsTotal)),
        stat(
          'queued join / refresh / background',
          `${rate.queued.join} / ${rate.queued.refresh} / ${rate.queued.background}`,
        ),
        rate.pausedUntil !== null && stat('paused after a 429 until', clock(rate.pausedUntil), 'bad'),
      ),
    );
    const most = Math.max(1, ...joins.histogram.counts);
    const bounds = joins.histogram.bounds
      .map((b) => `≤${b}s`)
      .concat(`>${joins.histogram.bounds[joins.histogram.bounds.length - 1]}s`);
    this.fill(
      'joins',
      h(
        'div',
        { class: 'stats' },
        ...joins.byReason.map((r) =>
          stat(`${r.outcome}: ${r.reason}`, String(r.count), r.outcome === 'refused' ? 'bad' : 'ok'),
        ),
      ),
      h(
        'div',
        { class: 'bars', title: 'decision times of the recent joins' },
        ...joins.histogram.counts.map((count, i) =>
          h(
            'div',
            {},
            h('small', { class: 'count' }, count),
            h('span', { class: 'bar' }),
            h('small', { class: 'bound' }, bounds[i]),
          ),
        ),
      ),
      h(
        'div',
        { class: 'scroll' },
        table(
          ['time', 'player', 'license', 'decision', 'reason', 'took'],
          joins.recent.map((d) => [
            clock(d.at),
            d.player,
            d.license ?? '—',
            h('span', { class: d.admitted ? 'ok' : 'bad' }, d.admitted ? 'admitted' : 'refused'),
            h('span', { title: d.note }, d.reason),
            `${d.ms} ms`,
          ]),
        ),
      ),
    );
    // Each bar's share of the tallest through CSSOM (allowed by the CSP, unlike style attributes in
    // markup); the style sheet makes it a height, or a length where the bars lie across a phone.
    const bars = this.sections.get('joins')!.querySelectorAll<HTMLElement>('span.bar');
    joins.histogram.counts.forEach((count, i) => {
      bars[i]?.style.setProperty('--share', String(count / most));
    });
    this.renderPlayers(s);
    this.fill(
      'cache',
      h(
        'div',
        { class: 'stats' },
        stat('entries', String(cache.entries)),
        stat('hit rate', `${Math.round(cache.hitRate * 100)}%`),
        stat('hits / misses', `${cache.hits} / ${cache.misses}`),
      ),
    );
    this.renderMirror(s.mirror, now);
    this.renderSharing(s.sharing, now);
    this.renderClaims(s.claimedLicenses);
    const training = document.getElementById('training')!;
    training.hidden = !s.training.on;
    this.fill('training', h('pre', {}, s.training.lines.join('\n')));
    this.renderDoctor(s.doctor);
  }

  /** Hidden when no mirror is kept. */
  private renderMirror(mirror: PanelStatus['mirror'], now: number): void {
    document.getElementById('mirror')!.hidden = mirror === null;
    if (mirror !== null) this.fill('mirror', ...mirrorParts(mirror, now));
  }

  /** Hidden when sharing is not turned on. */
  private renderSharing(sharing: PanelStatus['sharing'], now: number): void {
    document.getElementById('sharing')!.hidden = sharing === null;
    if (sharing !== null) this.fill('sharing', ...sharingParts(sharing, now));
  }

  /** Hidden when no license is claimed by several members. */
  private renderClaims(claims: PanelStatus['claimedLicenses']): void {
    document.getElementById('claims')!.hidden = claims.licenses.length === 0;
    this.fill('claims', ...claimParts(claims));
  }

  private renderPlayers(s: PanelStatus): void {
    this.fill('players', ...playerParts(s, this.search.value.trim().toLowerCase()));
  }

  private renderDoctor(doctor: PanelStatus['doctor']): void {
    this.doctorButton.disabled = doctor.running;
    if (doctor.running) this.doctorButton.textContent = 'Running…';
    else this.doctorButton.textContent = doctor.last ? 'Run doctor again' : 'Run doctor';
    this.fill(
      'doctor',
      doctor.last
        ? h(
            'div',
            {},
            h('p', { class: 'dim' }, `ran ${clock(doctor.last.at)} in ${doctor.last.ms} ms`),
            h('pre', { id: 'doctor-lines' }, doctor.last.lines.join('\n')),
          )
        : h('p', { class: 'dim' }, 'Not run yet from the panel.'),
    );
  }

  private async runDoctor(): Promise<void> {
    this.doctorButton.disabled = true;
    this.doctorButton.textContent = 'Running…';
    try {
      const response = await fetch('doctor', { method: 'POST', credentials: 'same-origin' });
      if (!response.ok) throw new Error(`doctor answered ${response.status}`);
      const last = await response.json();
      this.renderDoctor({ running: false, last });
    } catch (error) {
      this.fill('doctor', h('p', { class: 'bad' }, errorMessage(error)));
      this.doctorButton.disabled = false;
    }
  }

  private fill(id: string, ...children: (Node | false | null)[]): void {
    this.sections.get(id)?.replaceChildren(...children.filter((c): c is Node => Boolean(c)));
  }
}

const page = new PanelPage(document.getElementById('app')!);
void page.refresh();
setInterval(() => void page.refresh(), REFRESH_MS);
