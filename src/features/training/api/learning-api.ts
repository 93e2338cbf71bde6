import type { Lane, LimiterState } from '../../../http';
import {
  type ApiLayout,
  defaultLayout,
  LEARNING_ROUTES,
  OPENAPI_PATH,
  PUBLIC_API,
  withDiscordId,
} from './api-layout';
import type { LearningHttp } from './learning-http';
import { nextPageQuery } from './next-page';
import {
  type Certificate,
  type CourseRecord,
  type LearningKeyIdentity,
  type LinkedCompletion,
  type LinkRequestReply,
  type LinkStatus,
  type Progress,
  readCatalogAliases,
  readCertificates,
  readCourses,
  readIdentity,
  readLinkedCompletions,
  readLinkRequestReply,
  readLinkStatus,
  readProgress,
} from './records';
import { isNotFound, TrainingApiError } from './training-api-error';

/**
 * Pages followed at most, so a service that always says "more" cannot keep us looping: 100 pages
 * of a completion list hold every completion of thousands of linked players.
 */
const MAX_PAGES = 100;

export interface CallOptions {
  lane?: Lane;
  retries?: number;
  bypassSuspension?: boolean;
}

/** The learning partner endpoints the resource uses, as typed calls. */
export class LearningApi {
  private layout: ApiLayout = defaultLayout;

  constructor(private readonly http: LearningHttp) {
    http.useKeyCheck(() => this.identity(true));
  }

  useLayout(layout: ApiLayout): void {
    this.layout = layout;
  }

  /** The OpenAPI document (outside the partner prefix). */
  async openapi(): Promise<unknown> {
    return (await this.http.send({ method: 'GET', path: OPENAPI_PATH, lane: 'background', retries: 1 })).json;
  }

  /** The key's identity; `recheck` is the suspended key's re-check, sent while nothing else is. */
  async identity(recheck = false): Promise<LearningKeyIdentity> {
    const body = await this.get(
      this.layout.identityPath,
      {},
      { lane: 'background', bypassSuspension: recheck },
    );
    return readIdentity(body) ?? malformed(`GET ${this.layout.identityPath}`);
  }

  /** The aliases the public catalog reports for `alias` (`undefined` when it has none to show). */
  async catalogAliases(alias: string): Promise<{ org: string; requestedOrg: string } | undefined> {
    const path = this.layout.catalogPath.replace('{alias}', encodeURIComponent(alias));
    try {
      return readCatalogAliases(await this.get(path, {}, { lane: 'background', retries: 0 }));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async courses(options: CallOptions = {}): Promise<CourseRecord[]> {
    return readCourses(await this.get(LEARNING_ROUTES.courses, {}, options));
  }

  /** Completions of every linked user, across pages. */
  async linkedCompletions(options: CallOptions = {}): Promise<LinkedCompletion[]> {
    const all: LinkedCompletion[] = [];
    let query: Record<string, string> | undefined = {};
    const seen = new Set<string>();
    for (let page = 0; query !== undefined; page++) {
      if (page >= MAX_PAGES) {
        this.http.warnOnce(
          `pages ${LEARNING_ROUTES.completions}`,
          `The learning service keeps saying more pages of GET ${LEARNING_ROUTES.completions} follow; the resource stopped after ${MAX_PAGES} pages (${all.length} completions). The service's paging may be broken.`,
        );
        break;
      }
      const key = JSON.stringify(query);
      if (seen.has(key)) break;
      seen.add(key);
      const body = await this.get(LEARNING_ROUTES.completions, query, options);
      const completions = readLinkedCompletions(body);
      all.push(...completions);
      // An empty page ends the list whatever it claims: nothing can follow it.
      query = completions.length === 0 ? undefined : nextPageQuery(body, query, this.layout.paging);
    }
    return all;
  }

  async link(discordId: string, options: CallOptions = {}): Promise<LinkStatus> {
    const path = withDiscordId(LEARNING_ROUTES.link, discordId);
    try {
      return readLinkStatus(await this.get(path, {}, options)) ?? malformed(`GET ${LEARNING_ROUTES.link}`);
    } catch (error) {
      // The service answers an unknown user with `linked: false`; a 404 means the address is wrong,
      // and must never refuse a player as "not linked".
      if (isNotFound(error))
        throw new TrainingApiError(
          `The learning service answered 404 to GET ${LEARNING_ROUTES.link}, which answers every Discord id: training.baseUrl does not point at the learning service (give its address without ${PUBLIC_API}).`,
          { kind: 'outage', status: 404 },
        );
      throw error;
    }
  }

  async requestLink(
    discordId: string,
    username: string,
    options: CallOptions = {},
  ): Promise<LinkRequestReply> {
    const answer = await this.http.send({
      method: 'POST',
      path: `${PUBLIC_API}${LEARNING_ROUTES.linkRequests}`,
      body: { discord_id: discordId, discord_username: username },
      lane: options.lane ?? 'refresh',
      retries: options.retries ?? 0,
    });
    return (
      readLinkRequestReply(answer.json, this.layout.linkReply) ??
      malformed(`POST ${LEARNING_ROUTES.linkRequests}`)
    );
  }

  /** Enrolls the user; 201 is a new enrollment, 200 an existing one (the document: safe to retry). */
  async enroll(courseId: string, userSub: string): Promise<{ created: boolean }> {
    const answer = await this.http.send({
      method: 'POST',
      path: `${PUBLIC_API}${LEARNING_ROUTES.enrollments}`,
      body: { course_id: courseId, user_sub: userSub },
      lane: 'refresh',
      idempotent: true,
    });
    return { created: answer.status === 201 };
  }

  async expiringCertificates(days: number): Promise<Certificate[]> {
    return readCertificates(
      await this.get(LEARNING_ROUTES.expiringCertificates, { days: String(days) }, { lane: 'refresh' }),
    );
  }

  /** Experience, level and badges of a linked user; `null` when the user is not linked (404). */
  async progress(discordId: string): Promise<Progress | null> {
    const path = withDiscordId(LEARNING_ROUTES.progress, discordId);
    try {
      return readProgress(await this.get(path, {}, { lane: 'refresh' }), this.layout.progress) ?? null;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  limiterState(): LimiterState {
    return this.http.limiterState();
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private async get(path: string, query: Record<string, string>, options: CallOptions): Promise<unknown> {
    const answer = await this.http.send({
      method: 'GET',
      path: `${PUBLIC_API}${path}`,
      query,
      lane: options.lane ?? 'background',
      ...(options.retries === undefined ? {} : { retries: options.retries }),
      ...(options.bypassSuspension ? { bypassSuspension: true } : {}),
    });
    return answer.json;
  }
}

function malformed(request: string): never {
  throw new TrainingApiError(
    `The learning service answered ${request} with JSON of an unexpected shape. Check that training.baseUrl is the learning service; \`roster doctor\` shows what the resource assumed.`,
    { kind: 'outage', status: null },
  );
}
