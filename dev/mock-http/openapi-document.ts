/** `$ref` to a component schema. */
export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** OpenAPI `paths` from a route table: `:name` segments become `{name}`, one operation per method. */
export function openApiPaths<R extends { method: string; pattern: string }>(
  routes: readonly R[],
  operation: (route: R) => object,
): Record<string, Record<string, object>> {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) {
    const path = route.pattern.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route);
  }
  return paths;
}

export interface OpenApiSpec {
  title: string;
  baseUrl: string;
  paths: Record<string, Record<string, object>>;
  schemas: Record<string, object>;
  /** Describes the `Authorization: Bearer` token. */
  bearerDescription: string;
  /** Describes the `X-API-Key` header, when the mock has something to say about it. */
  apiKeyDescription?: string;
  /** `x-…` fields the mock adds at the end. */
  extensions: Record<`x-${string}`, unknown>;
}

/** An OpenAPI 3.1 document (version v1) whose keys are sent either as a bearer token or `X-API-Key`. */
export function openApiDocument(spec: OpenApiSpec): object {
  return {
    openapi: '3.1.0',
    info: { title: spec.title, version: 'v1' },
    servers: [{ url: spec.baseUrl }],
    paths: spec.paths,
    components: {
      schemas: spec.schemas,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: spec.bearerDescription },
        apiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          ...(spec.apiKeyDescription ? { description: spec.apiKeyDescription } : {}),
        },
      },
    },
    ...spec.extensions,
  };
}
