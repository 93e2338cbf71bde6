import { createHash } from 'node:crypto';

/**
 * How this server is named in the shared tables: `share.serverName`, else the `sv_projectName`
 * convar (its colour codes left out), else an id made of what tells this server from the others
 * on the machine and stays the same across restarts (its endpoint and the resource's folder).
 */
export function serverName(configured: string | undefined, projectName: string, place: string): string {
  if (configured !== undefined && configured.trim() !== '') return configured.trim().slice(0, 64);
  const project = projectName.replace(/\^\d/g, '').trim();
  if (project !== '') return project.slice(0, 64);
  return `server-${createHash('sha256').update(place, 'utf8').digest('hex').slice(0, 12)}`;
}
