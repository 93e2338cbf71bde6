/**
 * The owner's pages say what the code does: every export and event the published types declare
 * has its entry in docs/exports.md, marked sync or async as the types say, with a Lua and a JS
 * example that call it; every config.json key of the schema is in docs/configuration.md with its
 * real default, and no key the schema lacks; every example there loads; every Lua and JS example in
 * the README and the pages compiles; every link between them leads somewhere.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { LuaFactory } from 'wasmoon';
import { z } from 'zod';
import { DOCUMENTED_EXPORTS } from '../../src/features/exports/documented-exports';
import { configSchema, loadSettings } from '../../src/kernel/config';

const repo = resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(join(repo, file), 'utf8');
const pages = [
  'README.md',
  ...readdirSync(join(repo, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Fenced blocks of one language, in order. */
function fenced(text: string, language: string): string[] {
  return [...text.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\``, 'gm'))].map((m) => m[1]!);
}

/** The text under a `### <title>` heading, up to the next heading of level 2 or 3. */
function section(text: string, title: string): string | null {
  const start = text.search(new RegExp(`^### ${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, 'm'));
  if (start < 0) return null;
  const rest = text.slice(text.indexOf('\n', start) + 1);
  const end = rest.search(/^#{2,3} /m);
  return end < 0 ? rest : rest.slice(0, end);
}

/** Member names of an interface declared in types/index.d.ts, with whether each returns a Promise. */
function declared(interfaceName: string): Map<string, { promise: boolean }> {
  const file = ts.createSourceFile('index.d.ts', read('types/index.d.ts'), ts.ScriptTarget.Latest, true);
  const members = new Map<string, { promise: boolean }>();
  file.forEachChild((node) => {
    if (!ts.isInterfaceDeclaration(node) || node.name.text !== interfaceName) return;
    for (const member of node.members) {
      const name =
        member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name))
          ? member.name.text
          : null;
      if (name === null) continue;
      const returns = ts.isMethodSignature(member) ? (member.type?.getText(file) ?? '') : '';
      members.set(name, { promise: returns.startsWith('Promise<') });
    }
  });
  return members;
}

/** Every `config.json` key with its default (`undefined`: none), read from the schema itself. */
function configKeys(): Map<string, unknown> {
  const defaults = configSchema.parse({}) as Record<string, unknown>;
  const keys = new Map<string, unknown>();
  const walk = (schema: z.ZodType, path: string[], values: unknown) => {
    // Sections whose keys each have a default are wrapped in prefault; their keys are documented one by one.
    const inner = schema instanceof z.ZodPrefault ? schema.unwrap() : schema;
    if (inner instanceof z.ZodObject && (schema instanceof z.ZodPrefault || path.length === 0)) {
      for (const [key, child] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
        walk(child, [...path, key], (values as Record<string, unknown> | undefined)?.[key]);
      }
      return;
    }
    keys.set(path.join('.'), values);
  };
  walk(configSchema, [], defaults);
  return keys;
}

/** Rows of docs/configuration.md's tables: `| \`key\` | default | meaning |`. */
function documentedKeys(text: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const m of text.matchAll(/^\| `([a-zA-Z]+(?:\.[a-zA-Z]+)+)` \| (.+?) \| .+\|$/gm))
    rows.set(m[1]!, m[2]!);
  return rows;
}

/** A default cell read back as a value: `none` is no default, else the JSON inside the backticks. */
function cellValue(cell: string): unknown {
  if (cell.trim() === 'none') return undefined;
  const code = /^`(.+)`$/.exec(cell.trim());
  if (!code) throw new Error(`the default cell ${cell} is neither none nor a value in backticks`);
  return JSON.parse(code[1]!);
}

describe('docs/exports.md', () => {
  const page = read('docs/exports.md');
  const exportsDeclared = declared('RosterExports');
  const events = declared('RosterEvents');

  it('covers the exports the resource registers, as the types declare them', () => {
    expect([...exportsDeclared.keys()].sort()).toEqual(Object.keys(DOCUMENTED_EXPORTS).sort());
  });

  it.each([...exportsDeclared])(
    '%s has an entry, marked sync or async, with a Lua and a JS example',
    (name, { promise }) => {
      const entry = section(page, name);
      if (entry === null) throw new Error(`no "### ${name}" entry`);
      expect(entry).toContain(promise ? '**async**' : '**sync**');
      expect(entry).not.toContain(promise ? '**sync**' : '**async**');
      expect(fenced(entry, 'lua').join('\n')).toContain(`exports.roster:${name}(`);
      expect(fenced(entry, 'js').join('\n')).toContain(`exports.roster.${name}(`);
    },
  );

  it.each([...events.keys()])('%s has an entry with a Lua and a JS handler', (name) => {
    const entry = section(page, name);
    if (entry === null) throw new Error(`no "### ${name}" entry`);
    expect(fenced(entry, 'lua').join('\n')).toContain(`AddEventHandler('${name}'`);
    expect(fenced(entry, 'js').join('\n')).toContain(`on('${name}'`);
  });
});

describe('docs/configuration.md', () => {
  const page = read('docs/configuration.md');
  const keys = configKeys();
  const rows = documentedKeys(page);

  it.each([...keys])('documents %s with its default', (key, value) => {
    const cell = rows.get(key);
    if (cell === undefined) throw new Error(`no row for ${key}`);
    expect(cellValue(cell)).toEqual(value);
  });

  it('documents no key the schema does not have', () => {
    expect([...rows.keys()].filter((key) => !keys.has(key))).toEqual([]);
  });

  it.each(fenced(page, 'json').map((text, i) => [i, text] as const))('example %i loads', (_i, example) => {
    // As an owner uses it: the documentation's placeholder addresses replaced by their own.
    const text = example.replaceAll('example.com"', 'community.test"');
    const result = loadSettings(text, {
      apiKey: 'rk_abc123_s3cr3tvalue',
      // The owner's own address: the documentation's placeholder is refused as one.
      baseUrl: 'https://roster.community.test',
      logLevel: '',
      trainingApiKey: 'lms_a_b',
    });
    if (!result.ok) throw new Error(result.problems.join('\n'));
    expect(result.settings.warnings).toEqual([]);
  });
});

describe('the examples in the README and the pages', () => {
  const blocks = pages.flatMap((file) => [
    ...fenced(read(file), 'lua').map((code) => ({ file, language: 'lua', code })),
    ...fenced(read(file), 'js').map((code) => ({ file, language: 'js', code })),
  ]);

  it('are there', () => {
    expect(blocks.filter((b) => b.language === 'lua').length).toBeGreaterThan(20);
    expect(blocks.filter((b) => b.language === 'js').length).toBeGreaterThan(20);
  });

  it('compile, Lua as Lua 5.4 and JS as a CommonJS server script', async () => {
    const lua = await new LuaFactory().createEngine();
    try {
      const broken: string[] = [];
      for (const { file, language, code } of blocks) {
        let problem: string | null = null;
        if (language === 'lua') {
          lua.global.set('chunk', code);
          problem = (await lua.doString('local _, err = load(chunk) return err')) as string | null;
        } else {
          try {
            new Function(code);
          } catch (error) {
            problem = (error as Error).message;
          }
        }
        if (problem) broken.push(`${file} (${language}): ${problem}\n${code}`);
      }
      expect(broken).toEqual([]);
    } finally {
      lua.global.close();
    }
  });
});

describe('what the repository cites', () => {
  /** Text files of the repository an owner or a contributor reads, this file aside. */
  function textFiles(folder: string): string[] {
    return readdirSync(join(repo, folder), { withFileTypes: true }).flatMap((entry) => {
      const path = folder === '.' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        return ['node_modules', 'dist', 'coverage', '.git', '.tmp', '.build'].includes(entry.name)
          ? []
          : textFiles(path);
      }
      return /\.(ts|mjs|js|lua|md|json|cfg|yml|yaml)$/.test(entry.name) &&
        path !== 'test/docs/docs-pages.test.ts'
        ? [path]
        : [];
    });
  }

  it('names no document the repository does not hold', () => {
    // The interface document, the frameworks' notes and the API documents were never part of it.
    const outside = /\bCONTRACT(\.md| sections?\b)|FRAMEWORKS\.md|\/work\/shared/;
    const citing = textFiles('.').filter((file) => outside.test(read(file)));
    expect(citing).toEqual([]);
  });
});

describe('links between the README and the pages', () => {
  /** GitHub's heading anchors: lowercase, punctuation dropped, spaces to hyphens, repeats numbered. */
  function anchors(text: string): Set<string> {
    const seen = new Map<string, number>();
    const out = new Set<string>();
    const withoutCode = text.replace(/^```[\s\S]*?^```/gm, '');
    for (const m of withoutCode.matchAll(/^#{1,6} (.+)$/gm)) {
      const base = m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\- _]/gu, '')
        .replace(/ /g, '-');
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      out.add(count === 0 ? base : `${base}-${count}`);
    }
    return out;
  }

  it.each(pages)('every relative link in %s leads to a file and heading that exist', (file) => {
    const text = read(file).replace(/^```[\s\S]*?^```/gm, '');
    const broken: string[] = [];
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target)) continue;
      const [path = '', anchor] = target.split('#');
      const targetFile = path === '' ? join(repo, file) : resolve(dirname(join(repo, file)), path);
      if (!existsSync(targetFile)) {
        broken.push(target);
        continue;
      }
      if (anchor && targetFile.endsWith('.md') && !anchors(readFileSync(targetFile, 'utf8')).has(anchor)) {
        broken.push(target);
      }
    }
    expect(broken).toEqual([]);
  });
});
