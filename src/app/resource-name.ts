/** The name other resources and server.cfg reach this resource by. */
export const RESOURCE_NAME = 'roster';

/**
 * Why the resource cannot run under the name it was started with, or null when the name is right.
 * FXServer names a resource after its folder, and GitHub's zip unpacks as `roster-main/`. Under
 * another name the documented setup cannot work: other resources call `exports.roster`, and
 * `add_convar_permission roster read roster_api_key` hides the key from every other name, so the
 * key would read as not set although server.cfg sets it. This one line replaces that misleading one.
 */
export function wrongNameProblem(actual: string): string | null {
  if (actual === RESOURCE_NAME) return null;
  return (
    `this resource is started as "${actual}" but must be named "${RESOURCE_NAME}": other resources call ` +
    `exports.${RESOURCE_NAME}, and "add_convar_permission ${RESOURCE_NAME} read roster_api_key" in server.cfg ` +
    `lets only a resource named ${RESOURCE_NAME} read the key. Rename the folder to ${RESOURCE_NAME} ` +
    `(a downloaded zip unpacks as ${RESOURCE_NAME}-main) and use "ensure ${RESOURCE_NAME}".`
  );
}
