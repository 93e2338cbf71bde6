import {
  type ApiLayout,
  assumedLayout,
  type DiscoveredLayout,
  defaultLayout,
  describe,
  LEARNING_ROUTES,
  PUBLIC_API,
} from './api-layout';
import { isObject, type JsonObject } from './json-fields';
import { linkReplyFields, type Shape, shapesOf } from './link-reply-fields';

/**
 * Reads the learning service's OpenAPI document for the paths and field names the partner
 * document leaves out. Anything not found keeps its default and is reported as assumed; nothing
 * here throws on a document of an unexpected shape.
 */
export function discoverLayout(document: unknown): DiscoveredLayout {
  if (!isObject(document) || !isObject(document.paths)) return assumedLayout('it has no `paths`');
  const doc = new OpenApiDocument(document);
  const found = new Set<string>();
  const layout: ApiLayout = structuredClone(defaultLayout);

  const identity = doc.find('get', (op) => {
    const props = doc.responseProperties(op);
    return props.has('scopes') && props.has('flags');
  });
  if (identity) {
    layout.identityPath = identity;
    found.add('identity');
  }
  const catalog = doc.find(
    'get',
    (op, path) => path.includes('{') && doc.responseProperties(op).has('requested_org'),
  );
  if (catalog) {
    layout.catalogPath = catalog.replace(/\{[^}]+\}/, '{alias}');
    found.add('catalog');
  }
  const linkReply = doc.operation('post', LEARNING_ROUTES.linkRequests);
  const linkFields = linkReply && linkReplyFields(doc.responseShapes(linkReply), layout.linkReply);
  if (linkFields) {
    layout.linkReply = linkFields;
    found.add('linkReply');
  }
  const progress = doc.operation('get', LEARNING_ROUTES.progress);
  if (progress) {
    const props = [...doc.responseProperties(progress)];
    const experience =
      props.find((p) => /^(xp|experience|experience_points)$/i.test(p)) ??
      props.find((p) => /xp|experience/i.test(p));
    const level = props.find((p) => /level/i.test(p));
    const badges = props.find((p) => /badge/i.test(p));
    if (experience && level && badges) {
      layout.progress = { experience, level, badges };
      found.add('progress');
    }
  }
  const completions = doc.operation('get', LEARNING_ROUTES.completions);
  if (completions) {
    const params = doc.queryParameters(completions);
    const page = params.find((p) => /^(page|cursor|offset)$/i.test(p));
    const limit = params.find((p) => /^(limit|per_page|page_size)$/i.test(p));
    if (page) {
      layout.paging = { page, limit };
      found.add('paging');
    }
  }
  return {
    layout,
    notes: describe(layout, (part) => (found.has(part) ? 'found' : 'assumed')),
    problem: undefined,
  };
}

/** A small reader over an OpenAPI 3.x document: operations by partner path, `$ref`s followed. */
class OpenApiDocument {
  private readonly paths: Map<string, JsonObject>;

  constructor(private readonly document: JsonObject) {
    const servers = Array.isArray(document.servers) ? document.servers : [];
    const serverPath = servers
      .map((s) => (isObject(s) && typeof s.url === 'string' ? s.url : ''))
      .find((url) => url.includes(PUBLIC_API));
    this.paths = new Map();
    for (const [path, item] of Object.entries(document.paths as JsonObject)) {
      if (!isObject(item)) continue;
      if (path.startsWith(PUBLIC_API)) this.paths.set(path.slice(PUBLIC_API.length), item);
      else if (serverPath !== undefined && !path.startsWith('/api/')) this.paths.set(path, item);
    }
  }

  operation(method: string, path: string): JsonObject | undefined {
    const wanted = path.replace(/\{[^}]+\}/g, '{}');
    for (const [each, item] of this.paths) {
      if (each.replace(/\{[^}]+\}/g, '{}') !== wanted) continue;
      const op = item[method];
      if (isObject(op)) return op;
    }
    return undefined;
  }

  /** The first partner path whose `method` operation passes `test`. */
  find(method: string, test: (op: JsonObject, path: string) => boolean): string | undefined {
    for (const [path, item] of this.paths) {
      const op = item[method];
      if (isObject(op) && test(op, path)) return path;
    }
    return undefined;
  }

  /** Property names of every 2xx JSON response schema of the operation (all alternatives). */
  responseProperties(op: JsonObject): Set<string> {
    const names = new Set<string>();
    const responses = isObject(op.responses) ? op.responses : {};
    for (const [status, raw] of Object.entries(responses)) {
      if (!/^2/.test(status)) continue;
      const response = this.resolve(raw);
      const content = isObject(response?.content) ? response.content : {};
      for (const media of Object.values(content)) {
        if (isObject(media)) this.collect(media.schema, names, 0);
      }
    }
    return names;
  }

  /** Object shapes of every 2xx JSON response of the operation, with their property schemas. */
  responseShapes(op: JsonObject): Shape[] {
    const responses = isObject(op.responses) ? op.responses : {};
    const shapes: Shape[] = [];
    for (const [status, raw] of Object.entries(responses)) {
      if (!/^2/.test(status)) continue;
      const content = isObject(this.resolve(raw)?.content) ? (this.resolve(raw)?.content as JsonObject) : {};
      for (const media of Object.values(content))
        if (isObject(media)) shapes.push(...shapesOf(media.schema, (r) => this.resolve(r)));
    }
    return shapes;
  }

  queryParameters(op: JsonObject): string[] {
    const list = Array.isArray(op.parameters) ? op.parameters : [];
    return list
      .map((p) => this.resolve(p))
      .filter((p): p is JsonObject => p !== undefined && p.in === 'query' && typeof p.name === 'string')
      .map((p) => p.name as string);
  }

  private collect(raw: unknown, names: Set<string>, depth: number): void {
    const schema = this.resolve(raw);
    if (!schema || depth > 6) return;
    if (isObject(schema.properties)) for (const name of Object.keys(schema.properties)) names.add(name);
    for (const key of ['oneOf', 'anyOf', 'allOf']) {
      const list = schema[key];
      if (Array.isArray(list)) for (const each of list) this.collect(each, names, depth + 1);
    }
  }

  private resolve(raw: unknown): JsonObject | undefined {
    let value = raw;
    for (let hops = 0; isObject(value) && typeof value.$ref === 'string' && hops < 8; hops++) {
      const ref = value.$ref as string;
      if (!ref.startsWith('#/')) return undefined;
      value = ref
        .slice(2)
        .split('/')
        .reduce<unknown>(
          (node, part) => (isObject(node) ? node[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
          this.document,
        );
    }
    return isObject(value) ? value : undefined;
  }
}
