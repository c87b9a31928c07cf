/**
 * The API's documentation page, written on the server from the OpenAPI document: each route's
 * parameters, request body and response as nested lists. Plain HTML with no script at all, so it
 * works offline and under the app's Content-Security-Policy unchanged.
 */

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  description?: string;
  $ref?: string;
  additionalProperties?: boolean | Schema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
};

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  description?: string;
  schema: Schema;
}

interface Operation {
  summary: string;
  tags: string[];
  parameters: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
}

export interface OpenApiDocument {
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  components: { securitySchemes: Record<string, { type: string; in: string; name: string; description: string }> };
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** A schema's type in a few words: `string (date-time)`, `array of object`, `"A" | "B"`. */
function typeLabel(s: Schema): string {
  if (s.$ref) return esc(s.$ref.split('/').pop()!);
  if (s.const !== undefined) return `<code>${esc(JSON.stringify(s.const))}</code>`;
  if (s.enum) return s.enum.map((v) => `<code>${esc(JSON.stringify(v))}</code>`).join(' | ');
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return alternatives.map(typeLabel).join(' or ');
  if (s.allOf) return s.allOf.map(typeLabel).join(' and ');
  const type = Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'any');
  if (type === 'array' && s.items) return `array of ${typeLabel(s.items)}`;
  const limits = [
    s.format,
    s.minLength !== undefined ? `min length ${s.minLength}` : undefined,
    s.maxLength !== undefined ? `max length ${s.maxLength}` : undefined,
    // zod writes the safe-integer bounds on every integer; they say nothing to a reader.
    s.minimum !== undefined && s.minimum !== Number.MIN_SAFE_INTEGER ? `≥ ${s.minimum}` : undefined,
    s.maximum !== undefined && s.maximum !== Number.MAX_SAFE_INTEGER ? `≤ ${s.maximum}` : undefined,
  ].filter(Boolean);
  return esc(type) + (limits.length ? ` <small>(${esc(limits.join(', '))})</small>` : '');
}

/** The object's fields (or the array's items' fields, or each alternative's) as a nested list. */
function fields(s: Schema, depth = 0): string {
  if (depth > 8) return '';
  if (s.type === 'array' && s.items) return fields(s.items, depth);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return alternatives.map((a) => fields(a, depth)).join('');
  if (!s.properties) return '';
  const required = new Set(s.required ?? []);
  const rows = Object.entries(s.properties).map(([name, p]) => {
    const note = p.description ? ` — ${esc(p.description)}` : '';
    return `<li><code>${esc(name)}</code>${required.has(name) ? '' : '<small>?</small>'}: ${typeLabel(p)}${note}${fields(p, depth + 1)}</li>`;
  });
  return `<ul>${rows.join('')}</ul>`;
}

function schemaBlock(title: string, s: Schema | undefined): string {
  if (!s) return '';
  return `<h4>${title}</h4><p>${typeLabel(s)}</p>${fields(s)}`;
}

function operation(method: string, path: string, op: Operation): string {
  const params = op.parameters.length
    ? `<h4>Parameters</h4><ul>${op.parameters
        .map(
          (p) =>
            `<li><code>${esc(p.name)}</code>${p.required ? '' : '<small>?</small>'} (${esc(p.in)}): ${typeLabel(p.schema)}${p.description ? ` — ${esc(p.description)}` : ''}</li>`,
        )
        .join('')}</ul>`
    : '';
  const responses = Object.entries(op.responses)
    .map(([status, r]) =>
      schemaBlock(`Response ${esc(status)}: ${esc(r.description)}`, r.content?.['application/json']?.schema),
    )
    .join('');
  const id = `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-');
  return `<details id="${esc(id)}"><summary><span class="m ${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code> ${esc(op.summary)}</summary>${params}${schemaBlock('Request body', op.requestBody?.content['application/json']?.schema)}${responses}</details>`;
}

export function docsPage(doc: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods) as [string, Operation][]) {
      const tag = op.tags[0] ?? 'other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push(operation(method, path, op));
    }
  }
  const sections = [...byTag].map(([tag, ops]) => `<section><h2>${esc(tag)}</h2>${ops.join('')}</section>`).join('');
  const schemes = Object.entries(doc.components.securitySchemes)
    .map(
      ([name, s]) =>
        `<li><strong>${esc(name)}</strong> (${esc(s.type)} in ${esc(s.in)} <code>${esc(s.name)}</code>): ${esc(s.description)}</li>`,
    )
    .join('');
  const title = esc(doc.info.title);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>${STYLE}</style></head><body><main><h1>${title}</h1><p>The machine-readable OpenAPI document is at <a href="/api/openapi.json">/api/openapi.json</a>. Errors answer <code>{ statusCode, code, message, field? }</code>; <small>?</small> marks what may be left out.</p><h2>Authentication</h2><ul>${schemes}</ul><p>Routes marked with an <code>Idempotency-Key</code> header parameter are safe to retry with that header.</p>${sections}</main></body></html>`;
}

const STYLE =
  'body{font-family:system-ui,sans-serif;margin:0;color:#111;line-height:1.45}main{max-width:70rem;margin:0 auto;padding:1.5rem}' +
  'details{border:1px solid #ddd;border-radius:6px;margin:.4rem 0;padding:.3rem .7rem}summary{cursor:pointer}h4{margin:.8rem 0 .2rem}' +
  'ul{margin:.2rem 0;padding-left:1.3rem}.m{display:inline-block;min-width:4.2rem;font-weight:700}.get{color:#0a6}.post{color:#06c}.patch,.put{color:#a60}.delete{color:#c22}';
