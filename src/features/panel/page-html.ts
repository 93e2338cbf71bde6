import { createHash } from 'node:crypto';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Only the resource itself: no CDN, no fonts, no inline script. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The panel's shell; `app.js` fills it from `status.json` (relative links: FXServer strips `/roster`). */
export function pageHtml(title: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="app.css">
<script defer src="app.js"></script>
</head><body><div id="app"><p class="loading">Loading…</p></div></body></html>`;
}

const LOGIN_STYLE =
  'body{font:16px system-ui,sans-serif;background:#0f172a;color:#e2e8f0;display:grid;place-items:center;min-height:100vh;margin:0}' +
  'form{background:#1e293b;padding:24px;border-radius:12px;width:min(340px,90vw)}' +
  'input,button{font:inherit;width:100%;box-sizing:border-box;padding:10px;margin-top:12px;border-radius:8px;border:1px solid #334155}' +
  'button{background:#2563eb;color:#fff;border:0;cursor:pointer}.error{color:#f87171}';

const loginStyleHash = () => `'sha256-${createHash('sha256').update(LOGIN_STYLE).digest('base64')}'`;

/** The login page's CSP: its one inline style is allowed by hash, nothing else inline. */
export function loginCsp(): string {
  return PAGE_CSP.replace("style-src 'self'", `style-src ${loginStyleHash()}`);
}

/** The login form: the token is traded for a session cookie at `login` (POST). */
export function loginHtml(title: string, error: string | null): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title><style>${LOGIN_STYLE}</style></head>
<body><form method="post" action="login">
<h1>${escapeHtml(title)}</h1>
<label for="token">Panel token (<code>roster_web_token</code>)</label>
<input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<button type="submit">Sign in</button>
</form></body></html>`;
}
