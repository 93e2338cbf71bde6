// Style sheets are bundled by esbuild into app.css beside app.js.
declare module '*.css';
