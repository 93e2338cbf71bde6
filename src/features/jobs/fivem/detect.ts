import { fx } from '../../../platform/natives';
import type { FrameworkName, FrameworkPort } from '../framework-port';
import { esxPort } from './esx';
import { ndPort } from './nd';
import { oxPort } from './ox';
import { qbPort } from './qb';
import { qbxPort } from './qbx';

/**
 * Each framework's resource, in the order `auto` looks for them. Qbox comes before QBCore: it
 * `provide`s qb-core and answers its exports through a bridge, so a server with qbx_core also
 * seems to run qb-core.
 */
export const FRAMEWORKS: readonly { name: FrameworkName; resource: string; port: () => FrameworkPort }[] = [
  { name: 'qbx', resource: 'qbx_core', port: qbxPort },
  { name: 'ox', resource: 'ox_core', port: oxPort },
  { name: 'esx', resource: 'es_extended', port: esxPort },
  { name: 'nd', resource: 'ND_Core', port: ndPort },
  { name: 'qb', resource: 'qb-core', port: qbPort },
];

/**
 * The framework to use (`jobs.framework`), if its resource is started; null otherwise. On `auto`
 * qb-core is looked at last, so a Qbox server is taken for Qbox.
 */
export function detectFramework(choice: FrameworkName | 'auto'): FrameworkPort | null {
  for (const framework of FRAMEWORKS) {
    if (choice !== 'auto' && framework.name !== choice) continue;
    if (fx.GetResourceState(framework.resource) === 'started') return framework.port();
  }
  return null;
}

export function isFrameworkResource(resource: string): boolean {
  return FRAMEWORKS.some((f) => f.resource === resource);
}
