/** Replaced at build time with the version from package.json. */
declare const __ROSTER_VERSION__: string;
/** The owner's panel page (script and styles), built by esbuild and inlined at build time. */
declare const __PANEL_JS__: string;
declare const __PANEL_CSS__: string;
