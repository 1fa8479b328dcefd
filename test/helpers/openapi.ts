import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { ROOT } from './cli.js';

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: Record<string, unknown>;
}
export interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { $ref?: string; content?: Record<string, unknown> }>;
}
type PathItem = Record<string, Operation> & { parameters?: Parameter[] };
export interface OpenApiDoc {
  paths: Record<string, PathItem>;
}

/** kb serve's own description of itself, as shipped in docs/openapi.json. */
export const doc = JSON.parse(readFileSync(join(ROOT, 'docs', 'openapi.json'), 'utf8')) as OpenApiDoc;
const METHODS = ['get', 'post', 'patch', 'put', 'delete'];

// ajv-formats is CommonJS: its function is the default export's default, depending on the loader.
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as (
  ajv: Ajv2020,
) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(doc as object, 'kb');

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The operations the document lists: method, path template, and the operation with its path's parameters. */
export const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.keys(item)
    .filter((m) => METHODS.includes(m))
    .map((m) => ({
      method: m.toUpperCase(),
      path,
      operation: item[m]!,
      parameters: [...(item.parameters ?? []), ...(item[m]!.parameters ?? [])],
    })),
);

/** The document's path template a request path falls under. */
export function template(path: string): string {
  const bare = path.split('?')[0]!;
  const found = Object.keys(doc.paths).find((t) =>
    new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.')}$`).test(bare),
  );
  if (!found) throw new Error(`${bare} is not in the document`);
  return found;
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/**
 * What is wrong with an answer, by the document: a status it does not list for the operation, a
 * body that is not of the documented type or schema. Undefined when the document describes it.
 */
export function undocumented(method: string, path: string, answer: Answer): string | undefined {
  const t = template(path);
  const operation = doc.paths[t]![method.toLowerCase()];
  const at = `${method} ${path.length > 120 ? `${path.slice(0, 117)}...` : path}`;
  if (!operation) return `${at}: ${method} ${t} is not in the document`;
  const response = operation.responses[String(answer.status)];
  if (!response)
    return `${at} answered ${answer.status}, which the document does not list for ${method} ${t}`;
  const content = response.$ref ? { 'application/json': {} } : response.content;
  if (content && 'application/json' in content) {
    if (!/^application\/json/.test(answer.contentType))
      return `${at} ${answer.status}: content type ${answer.contentType || 'none'}, not JSON`;
    const where = response.$ref
      ? `${response.$ref.replace('#/', 'kb#/')}/content/application~1json/schema`
      : `kb#/${pointer('paths', t, method.toLowerCase(), 'responses', String(answer.status))}/content/application~1json/schema`;
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return `${at} ${answer.status}: the body is not JSON`;
    }
    const validate = ajv.getSchema(where) ?? ajv.compile({ $ref: where });
    if (!validate(body)) return `${at} ${answer.status}: ${ajv.errorsText(validate.errors)}`;
  } else if (content && 'text/event-stream' in content) {
    if (!/^text\/event-stream/.test(answer.contentType))
      return `${at} ${answer.status}: content type ${answer.contentType || 'none'}, not an event stream`;
  } else if (answer.text !== '') return `${at} ${answer.status}: a body where the document has none`;
  return undefined;
}
