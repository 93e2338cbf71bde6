import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';

/** The repository's root, and `src/` in it. */
export const repo = join(import.meta.dirname, '../..');
const srcRoot = join(repo, 'src');

/** Every file under `src/`, as a path from the repository's root with forward slashes. */
export function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push(relative(repo, full).split('\\').join('/'));
    }
  };
  walk(srcRoot);
  return files.sort();
}

const SPECIFIER = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]*)['"]/g;

/** Each TypeScript file of `src/` and the files of `src/` it imports (relative imports, types included). */
export function importGraph(): Map<string, Set<string>> {
  const files = sourceFiles().filter((file) => file.endsWith('.ts'));
  const known = new Set(files);
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const match of readFileSync(join(repo, file), 'utf8').matchAll(SPECIFIER)) {
      const base = posix.normalize(posix.join(posix.dirname(file), match[1]!));
      const target = [`${base}.ts`, `${base}/index.ts`, base].find((candidate) => known.has(candidate));
      if (target) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/**
 * The folder a file belongs to for the floor plan: `src/features/<name>` for a feature (its
 * `fivem/` and other subfolders included), else the first folder under `src/`.
 */
export function floorFolder(file: string): string {
  const parts = file.split('/').slice(1, -1);
  if (parts.length === 0) return 'src';
  return parts[0] === 'features' ? `src/features/${parts[1]}` : `src/${parts[0]}`;
}

/** The same graph between folders (`floorFolder`), without a folder's arrows to itself. */
export function folderGraph(files: Map<string, Set<string>>): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    const from = floorFolder(file);
    for (const target of targets) {
      const to = floorFolder(target);
      if (to === from) continue;
      const set = graph.get(from) ?? new Set<string>();
      graph.set(from, set.add(to));
    }
  }
  return graph;
}

/** The graph's cycles: every strongly connected group of more than one node (Tarjan's). */
export function cycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) found.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}
