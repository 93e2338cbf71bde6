import type { LearningKeyIdentity } from './api/records';
import type { TrainingService } from './training-service';

/** Where the organisation's alias is remembered between starts (a small file in the resource folder). */
export interface AliasMemory {
  load(): { alias: string; previous?: string | undefined } | undefined;
  save(value: { alias: string; previous?: string | undefined }): void;
}

/**
 * The key identity gives only the current alias. A rename shows as a change from the alias
 * remembered at the last start; the public catalog confirms it (asked with the old alias it answers
 * `requested_org` = old, `org` = current).
 */
export async function previousAlias(
  service: TrainingService,
  identity: LearningKeyIdentity,
  memory: AliasMemory | undefined,
): Promise<string | undefined> {
  const current = identity.org.alias;
  if (current === undefined || memory === undefined) return undefined;
  const remembered = memory.load();
  let previous = remembered?.alias === current ? remembered.previous : remembered?.alias;
  if (previous !== undefined && previous !== remembered?.previous) {
    const aliases = await service.api.catalogAliases(previous).catch(() => undefined);
    // A catalog that answers for the old alias with another organisation means it was not a rename.
    if (aliases !== undefined && aliases.org !== current) previous = undefined;
  }
  memory.save({ alias: current, previous });
  return previous;
}
