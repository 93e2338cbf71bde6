/** The page's script and styles, inlined into the bundle by dev/build.mjs (empty when run from source). */
export function panelAssets(): { js: string; css: string } {
  return {
    js: typeof __PANEL_JS__ === 'string' ? __PANEL_JS__ : '',
    css: typeof __PANEL_CSS__ === 'string' ? __PANEL_CSS__ : '',
  };
}
