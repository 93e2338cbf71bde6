/** The ACE the sandbox's server.cfg gives LSPD Sergeants and above (the first worked example of docs/permissions.md). */
export const SERGEANT_ACE = 'command.spikestrip';
/** The ACE it gives every admitted member (that page's third example). */
export const MEMBER_ACE = 'vMenu.OnlinePlayers.Menu';

export interface CfgValues {
  baseUrl: string;
  apiKey: string;
  trainingApiKey: string;
  webToken: string;
  /** The `license:…` identifier of the player the owner makes an admin. */
  adminLicense: string;
  adminLabel: string;
}

/**
 * The sandbox's server.cfg, as an owner writes it (the README's install block, and docs/ on
 * permissions, rank changes and the panel). FxServer runs each line as the console; `ensure roster` is the sandbox's own start of
 * the resource from a temporary folder, so it is not among them. `keys cut`: the text to print.
 */
export function sandboxServerCfg(values: CfgValues, shown: 'as is' | 'keys cut' = 'as is'): string {
  const key = (token: string) => (shown === 'as is' ? token : cut(token));
  const lines: [string, string?][] = [
    ['set sv_maxclients 64', 'ConnectQueue holds players beyond it'],
    [`set roster_base_url "${values.baseUrl}"`, 'the mock roster service'],
    [`set roster_api_key "${key(values.apiKey)}"`, '`set`, never `setr`/`sets`: those publish it'],
    ['add_convar_permission roster read roster_api_key', 'only this resource may read the key'],
    [`set roster_training_api_key "${key(values.trainingApiKey)}"`, 'the mock learning service'],
    ['add_convar_permission roster read roster_training_api_key'],
    [`set roster_web_token "${values.webToken}"`, "turns the owner's panel on"],
    ['add_ace resource.roster command.add_principal allow', 'lets roster grant its principals'],
    ['add_ace resource.roster command.remove_principal allow', 'and take them back'],
    [`add_principal identifier.${values.adminLicense} group.admin`, values.adminLabel],
    ['add_ace group.admin roster.manage allow', 'admins may set any rank'],
    [`add_ace roster.lspd.sergeant ${SERGEANT_ACE} allow`, 'LSPD Sergeant and above'],
    [`add_ace roster.member ${MEMBER_ACE} allow`, 'every admitted member'],
  ];
  return cfgText(lines);
}

/**
 * The second server's server.cfg: the roster with its own key, the principals, and the ACE the
 * audit-feed part checks. No panel, no training, no admin.
 */
export function secondServerCfg(values: Pick<CfgValues, 'baseUrl' | 'apiKey'>): string {
  return cfgText([
    [`set roster_base_url "${values.baseUrl}"`],
    [`set roster_api_key "${values.apiKey}"`],
    ['add_convar_permission roster read roster_api_key'],
    ['add_ace resource.roster command.add_principal allow'],
    ['add_ace resource.roster command.remove_principal allow'],
    [`add_ace roster.member ${MEMBER_ACE} allow`],
  ]);
}

function cfgText(lines: readonly (readonly [string, string?])[]): string {
  const width = Math.max(...lines.map(([line]) => line.length)) + 2;
  return lines.map(([line, note]) => (note ? `${line.padEnd(width)}# ${note}` : line)).join('\n');
}

/** An API key cut after its id, as the resource's own output shows keys (`rstr_<id>_…`). */
function cut(token: string): string {
  const end = token.lastIndexOf('_');
  return `${end > 0 ? token.slice(0, end + 1) : token.slice(0, 6)}…`;
}
