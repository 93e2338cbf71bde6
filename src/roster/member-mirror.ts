import type { CatalogIndex } from './catalog-index';
import type { MemberView } from './member-view';

/** A last known record and when this server read it (its clock). */
export interface KnownRecord {
  view: MemberView;
  readAt: number;
}

/** What the mirror holds for a license: all a resolve asks of it, in one question. */
export interface HeldRecord {
  /** The member, when the mirror answers for this license; else undefined (the cache is next). */
  answer: MemberView | undefined;
  /** When the record held was read (this server's time): a cached answer older than it is out of date. */
  readAt: number;
}

/**
 * The whole roster kept on the server: a license it holds is answered
 * without a request. It never says "not on the roster": a license it does not hold is looked up.
 */
export interface MemberMirror {
  /**
   * What it holds for `license`, or undefined when it holds nothing. It answers (`answer`) only
   * while `answering`, for a license not in doubt, and given `catalog` to shape the member with
   * (null: departments and ranks not loaded yet, so no answer).
   */
  held(license: string, catalog: CatalogIndex | null): HeldRecord | undefined;
  /** True while it answers: the whole roster is held and known current. */
  readonly answering: boolean;
  /** The license of the member held whose member id or assignment id is `id`. */
  licenseNamedBy(id: string): string | undefined;
  /**
   * The member it holds for `license` however current (e.g. loaded from a snapshot and not caught
   * up yet): a last known record for the outage policy only. `catalog`: null when not loaded yet.
   */
  lastKnown(license: string, catalog: CatalogIndex | null): KnownRecord | undefined;
  /**
   * When the last full read of the whole roster that completed began (this server's time): a
   * license it does not hold was not on the roster then. null: none this run.
   */
  readonly wholeAt: number | null;
  /** The record held for `license` may be out of date: not answered until the service answers for it. */
  doubt(license: string): void;
}
