/** Replaced at build time with the version from package.json. */
declare const __ROSTER_VERSION__: string;
