import { errorMessage } from '../../../platform/error-message';
import type { FxHttpHandler } from '../../../platform/fx-http';
import { fx } from '../../../platform/natives';
import type { Logger } from '../../../platform/ports';

/** Hands the panel to FXServer's HTTP server; says so once, without the token. */
export function serveWebPanel(resource: string, handler: FxHttpHandler, logger: Logger): void {
  try {
    fx.SetHttpHandler(handler);
  } catch (error) {
    logger.warn(`the owner's panel could not start: ${errorMessage(error)}`);
    return;
  }
  logger.info(
    `the owner's panel is on at http://<server>:<port>/${resource}/ (sign in with roster_web_token; put a TLS proxy in front for remote use, listed in panel.trustedProxies).`,
  );
}
