import type { JoinDecision } from '../../kernel/join-decision';
import type { FxHttpHandler } from '../../platform/fx-http';
import type { Clock, Logger } from '../../platform/ports';
import { ClientAddresses } from './client-address';
import { DoctorRuns } from './doctor-runs';
import type { RefusalTexts } from './join-reason';
import { Lockout, type LockoutOptions } from './lockout';
import { panelAssets } from './page-assets';
import { PanelAuth } from './panel-auth';
import { createPanelHandler } from './panel-handler';
import { PanelMetrics } from './panel-metrics';
import { PanelRecorder } from './panel-recorder';
import type { PanelSources } from './panel-sources';
import { buildStatus } from './panel-status';
import { Sessions } from './sessions';
import { tokenMatcher } from './web-token';

export interface PanelOptions {
  token: string;
  sources: PanelSources;
  /** The refusal texts for a decision (to tell roster refusals apart). */
  refusalTexts: (decision: JoinDecision) => RefusalTexts;
  clock: Clock;
  logger: Logger;
  /** `/<resource>/`, the path the browser sees. */
  basePath: string;
  /** Texts never sent in a response, besides the token. */
  secrets: readonly string[];
  lockout?: LockoutOptions;
  /** `panel.trustedProxies`: reverse proxies whose `X-Forwarded-*` headers are believed. */
  trustedProxies?: readonly string[];
  assets?: { js: string; css: string };
}

export interface Panel {
  handler: FxHttpHandler;
  /** For the gate's decision hook. */
  decided(decision: JoinDecision): void;
  /** For the roster client: a request's status, or null when nothing came back. */
  answered(status: number | null): void;
  recorder: PanelRecorder;
  metrics: PanelMetrics;
}

/** The owner's panel: records cheaply as things happen, builds its pages only when asked. */
export function createPanel(options: PanelOptions): Panel {
  const { sources, clock } = options;
  const recorder = new PanelRecorder(options.refusalTexts);
  const metrics = new PanelMetrics(sources, () => recorder.totals);
  recorder.onDecision((d) => metrics.joinDecided(d.admitted, d.reason, d.ms));
  const doctor = new DoctorRuns(() => sources.doctor(), clock);
  const sessions = new Sessions();
  const auth = new PanelAuth({
    matches: tokenMatcher(options.token),
    lockout: new Lockout(options.lockout),
    sessions,
    clock,
  });
  const secrets = [...options.secrets, options.token].filter((s) => s.length > 0);
  const handler = createPanelHandler({
    auth,
    addresses: new ClientAddresses(options.trustedProxies ?? []),
    sessions,
    clock,
    logger: options.logger,
    basePath: options.basePath,
    title: 'roster',
    assets: options.assets ?? panelAssets(),
    status: () => buildStatus(sources, recorder, doctor, clock.now()),
    metrics: async () => ({ text: await metrics.text(), contentType: metrics.contentType }),
    doctor: () => doctor.run(),
    secrets: () => secrets,
  });
  return {
    handler,
    decided: (decision) => recorder.decided(decision),
    answered: (status) => recorder.answered(clock.now(), status),
    recorder,
    metrics,
  };
}
