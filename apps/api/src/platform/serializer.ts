import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z, type ZodType } from 'zod';

type JsonSchema = Record<string, unknown>;

/**
 * `anyOf` of plain types (zod's `.nullable()` on a scalar) as a type list: fast-json-stringify then
 * writes the value directly instead of trying each branch against the value with a validator.
 */
function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (typeof node !== 'object' || node === null) return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) out[k] = simplify(v);
  // Undeclared fields are left out without it; with it, an object with one more field matches no
  // branch of an `anyOf` (a nullable object) and the answer fails, where zod just dropped the field.
  if (out.additionalProperties === false) delete out.additionalProperties;
  const anyOf = out.anyOf;
  if (
    Array.isArray(anyOf) &&
    anyOf.every((b: JsonSchema) => typeof b.type === 'string' && Object.keys(b).length === 1)
  ) {
    delete out.anyOf;
    out.type = anyOf.map((b: JsonSchema) => b.type);
  }
  return out;
}

/**
 * Responses written from the route's zod schema compiled into a JSON-schema serializer (issue 14 item
 * 3): what the schema declares is written and nothing else, as zod's encoding does (a field a service
 * adds by mistake never leaves the server), without checking and copying every value first — on a
 * list of 200 course cards that check cost a quarter of the request. A schema JSON Schema cannot
 * express (a transform) keeps zod's own serializer.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<ZodType> = (route) =>
  compiledWriter(route.schema) ?? zodSerializerCompiler(route);

function compiledWriter(schema: ZodType): ((data: unknown) => string) | undefined {
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' }) as JsonSchema;
  } catch {
    return undefined;
  }
  return fastJson(simplify(json) as Parameters<typeof fastJson>[0]);
}

/**
 * The JSON text a route with `schema` as its response writes for `data`: for answers a service keeps
 * as text (sent with `sendJsonText`), identical to what the route would have written.
 */
export function jsonWriterFor<T extends ZodType>(schema: T): (data: z.output<T>) => string {
  const write = compiledWriter(schema);
  if (!write) throw new Error('jsonWriterFor: the schema cannot be written as JSON Schema');
  return write;
}
