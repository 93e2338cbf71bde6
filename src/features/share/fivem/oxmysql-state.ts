import { fx } from '../../../platform/natives';

/** Whether the oxmysql resource runs, so its exports can be called. */
export function oxmysqlStarted(): boolean {
  return fx.GetResourceState('oxmysql') === 'started';
}

/** The convars that name this server: its project name, and where it listens. */
export function serverConvars(): { projectName: string; endpoint: string } {
  return { projectName: fx.GetConvar('sv_projectName', ''), endpoint: fx.GetConvar('endpoint_add_tcp', '') };
}
