import type { Config } from '../../../kernel/config';
import { withinOrFail } from '../../../platform/answer-within';
import { errorMessage } from '../../../platform/error-message';
import { fx } from '../../../platform/natives';
import type { Clock, Logger, TimerHandle } from '../../../platform/ports';
import type { CatalogIndex } from '../../../roster/catalog-index';
import type { FrameworkJobs } from '../framework-jobs';
import type { FrameworkPort } from '../framework-port';
import { jobDoctorLines, mappingProblems } from '../job-doctor';
import { type JobMapping, resolveJobMapping } from '../job-mapping';
import type { JobSync } from '../job-sync';
import { detectFramework, isFrameworkResource } from './detect';
import { listenToFrameworks } from './framework-events';

/** Frameworks fill their job lists after they start (ND_Core about a second later): poll until then. */
const POLL_MS = 1000;

export interface JobSyncRunnerDeps {
  config: Config;
  sync: JobSync;
  catalog: () => CatalogIndex | null;
  clock: Clock;
  logger: Logger;
  callMs: number;
}

/**
 * Finds the framework, waits for its job list, validates the mapping and hands both to job sync;
 * again whenever a framework resource starts or restarts (and the roster's catalog reloads).
 * Nothing is judged, nor any character written, while the list is still empty.
 */
export class JobSyncRunner {
  private port: FrameworkPort | null = null;
  private jobs: FrameworkJobs | null = null;
  private mapping: JobMapping | null = null;
  private state = 'not started';
  private generation = 0;
  private poll: TimerHandle | null = null;
  private printed = '';

  constructor(private readonly deps: JobSyncRunnerDeps) {
    listenToFrameworks(() => (this.mapping ? (this.port?.name ?? null) : null), {
      loaded: (src) => deps.sync.apply(src),
      unloaded: (src) => deps.sync.forget(src),
      jobChanged: (src) => deps.sync.jobEvent(src),
    });
    fx.on('playerDropped', () => deps.sync.forget(String(fx.source)));
    fx.on('onServerResourceStart', (resource: string) => {
      if (isFrameworkResource(resource)) this.start();
    });
    fx.on('onResourceStop', (resource: string) => {
      if (resource === this.port?.resource) this.use(null, 'stopped');
    });
    // Job lists changed at runtime (ESX's RefreshJobs, Qbox's CreateJob/UpsertJobData…): read and
    // validate again; the mapping in use stays until the new list is there.
    for (const event of ['esx:jobsRefreshed', 'qbx_core:server:onJobUpdate']) {
      fx.on(event, () => {
        if (this.port && this.jobs) void this.readJobs(this.generation);
      });
    }
  }

  start(): void {
    const port = detectFramework(this.deps.config.jobs.framework);
    if (!port) {
      const wanted = this.deps.config.jobs.framework;
      this.use(null, wanted === 'auto' ? 'no framework resource is started' : `${wanted} is not started`);
      return;
    }
    this.use(port, 'waiting for its job list');
    // A framework (re)started: what its list lacks is said again, once.
    this.printed = '';
    void this.readJobs(this.generation);
  }

  stop(): void {
    this.generation++;
    if (this.poll !== null) this.deps.clock.clearTimeout(this.poll);
    this.poll = null;
  }

  /** The roster's departments or ranks changed: the grades follow. */
  catalogLoaded(): void {
    if (this.port && this.jobs) this.remap();
  }

  doctorLines(): string[] {
    return jobDoctorLines(
      this.port ? `${this.port.name} (${this.port.resource})` : null,
      this.state,
      this.mapping,
    );
  }

  private use(port: FrameworkPort | null, state: string): void {
    this.stop();
    this.port = port;
    this.jobs = null;
    this.mapping = null;
    this.state = state;
    this.deps.sync.use(null, null, []);
  }

  private async readJobs(generation: number): Promise<void> {
    const port = this.port;
    if (!port || generation !== this.generation) return;
    let jobs: FrameworkJobs | null = null;
    try {
      jobs = await withinOrFail(
        port.jobs(),
        this.deps.callMs,
        this.deps.clock,
        `${port.resource}'s job list`,
      );
    } catch (error) {
      this.deps.logger.debug(`jobs: ${errorMessage(error)}`);
    }
    if (generation !== this.generation) return;
    if (!jobs || jobs.size === 0) {
      this.poll = this.deps.clock.setTimeout(() => void this.readJobs(generation), POLL_MS);
      return;
    }
    this.jobs = jobs;
    this.remap();
  }

  private remap(): void {
    const catalog = this.deps.catalog();
    const { port, jobs } = this;
    if (!port || !jobs) return;
    if (!catalog || catalog.departments.size === 0) {
      this.state = 'waiting for the roster departments';
      return;
    }
    const { departments, unassigned } = this.deps.config.jobs;
    const mapping = resolveJobMapping(
      departments,
      catalog,
      jobs,
      this.deps.config.ranks.order,
      port.removesJob ? null : unassigned,
    );
    const problems = mappingProblems(mapping);
    const text = problems.join('\n');
    if (text !== this.printed) for (const problem of problems) this.deps.logger.warn(problem);
    this.printed = text;
    this.mapping = mapping;
    this.state = `${jobs.size} jobs, ${mapping.departments.length} of ${mapping.rows.length} mappings in use`;
    this.deps.sync.use(port, mapping, fx.getPlayers());
  }
}
