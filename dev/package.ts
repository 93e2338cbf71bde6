// Builds roster.zip: the folder an owner unpacks into resources/ as it is.
import { createWriteStream, existsSync, readdirSync } from 'node:fs';
import { ZipFile } from 'yazl';

// The README's links lead into docs/: its pages and pictures go with it.
const docs = readdirSync('docs')
  .filter((name) => /\.(md|png)$/.test(name))
  .sort()
  .map((name) => `docs/${name}`);
const files = [
  'fxmanifest.lua',
  'dist/server.js',
  'config.example.json',
  'README.md',
  'LICENSE',
  'types/index.d.ts',
  'types/roster.lua',
  ...docs,
];
const missing = files.filter((file) => !existsSync(file));
if (missing.length > 0) {
  console.error(`cannot package: missing ${missing.join(', ')} (run npm run build first)`);
  process.exit(1);
}

const zip = new ZipFile();
for (const file of files) zip.addFile(file, `roster/${file}`);
zip.end();
zip.outputStream.pipe(createWriteStream('roster.zip')).on('close', () => {
  console.log(`roster.zip: ${files.length} files, unpack into resources/ (it holds the roster/ folder)`);
});
