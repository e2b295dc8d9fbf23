/**
 * Why a tool's input schema cannot be given to a model, or null. The model APIs take a JSON
 * Schema of an object for a tool's arguments (MCP says the same of `inputSchema`), so the top is
 * `{"type": "object", …}`; below it, every standard keyword bosun knows (draft-07 to 2020-12)
 * must have the kind of value JSON Schema's meta-schema allows, as a validator would check it:
 * `"type": "strnig"` or `"required": "path"` is a server's bug that a provider would reject with
 * the whole request, so such a tool is left out instead. Keywords bosun does not know are let
 * through, as JSON Schema itself allows. Pure: the answer is one line naming the place.
 */
export function inputSchemaProblem(schema: unknown): string | null {
  if (!isObject(schema)) return "the input schema is not an object";
  if (schema.type !== "object") return `the input schema is not an object's (its type is ${JSON.stringify(schema.type ?? null)}, and a model's tool takes an object of arguments)`;
  return schemaProblem(schema, []);
}

const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);

/** Keywords whose value is one schema. */
const ONE_SCHEMA = ["additionalProperties", "additionalItems", "contains", "propertyNames", "if", "then", "else", "not", "unevaluatedItems", "unevaluatedProperties"];
/** Keywords whose value is a non-empty list of schemas. */
const SCHEMA_LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP = ["properties", "patternProperties", "definitions", "$defs", "dependentSchemas"];
/** Keywords whose value is a count. */
const COUNTS = ["maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties", "maxContains", "minContains"];
const NUMBERS = ["maximum", "minimum"];
const TEXTS = ["title", "description", "format", "$id", "$schema", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$comment", "contentMediaType", "contentEncoding"];
const FLAGS = ["uniqueItems", "readOnly", "writeOnly", "deprecated"];

/** `path: problem`, the path dotted from the top of the input schema. */
function at(path: string[], problem: string): string {
  return `${path.join(".") || "the input schema"}: ${problem}`;
}

/** The first problem of a (sub)schema at `path`. */
function schemaProblem(schema: unknown, path: string[]): string | null {
  if (typeof schema === "boolean") return null;
  if (!isObject(schema)) return at(path, "is not a schema (an object, or true or false)");
  for (const [keyword, value] of Object.entries(schema)) {
    const problem = keywordProblem(keyword, value, [...path, keyword]);
    if (problem) return problem;
  }
  return null;
}

/** The first problem of one keyword's value at `path` (which ends with the keyword). */
function keywordProblem(keyword: string, value: unknown, path: string[]): string | null {
  const own = (problem: string | null) => (problem === null ? null : at(path, problem));
  if (keyword === "type") return own(typeProblem(value));
  if (ONE_SCHEMA.includes(keyword)) return schemaProblem(value, path);
  if (keyword === "items") return Array.isArray(value) ? listProblem(value, path) : schemaProblem(value, path);
  if (SCHEMA_LIST.includes(keyword)) {
    if (!Array.isArray(value)) return own("is not a list of schemas");
    if (value.length === 0 && keyword !== "prefixItems") return own("is an empty list");
    return listProblem(value, path);
  }
  if (SCHEMA_MAP.includes(keyword)) {
    if (!isObject(value)) return own("is not an object of schemas");
    for (const [name, sub] of Object.entries(value)) {
      if (keyword === "patternProperties" && !validPattern(name)) return at([...path, name], "is not a regular expression");
      const problem = schemaProblem(sub, [...path, name]);
      if (problem) return problem;
    }
    return null;
  }
  if (keyword === "dependencies") {
    if (!isObject(value)) return own("is not an object");
    for (const [name, sub] of Object.entries(value)) {
      // A list of property names that must come along, or a schema.
      const listed = Array.isArray(sub) ? stringListProblem(sub) : null;
      const problem = Array.isArray(sub) ? listed && at([...path, name], listed) : schemaProblem(sub, [...path, name]);
      if (problem) return problem;
    }
    return null;
  }
  if (keyword === "required") return own(stringListProblem(value));
  if (keyword === "enum" || keyword === "examples") return own(Array.isArray(value) ? null : "is not a list");
  if (keyword === "multipleOf") return own(typeof value === "number" && value > 0 ? null : "is not a number above 0");
  if (NUMBERS.includes(keyword)) return own(typeof value === "number" ? null : "is not a number");
  // A number since draft 06, a flag in draft 04: both still reach servers.
  if (keyword === "exclusiveMaximum" || keyword === "exclusiveMinimum") return own(typeof value === "number" || typeof value === "boolean" ? null : "is not a number");
  if (COUNTS.includes(keyword)) return own(Number.isInteger(value) && (value as number) >= 0 ? null : "is not a whole number of 0 or more");
  if (keyword === "pattern") return own(typeof value === "string" && validPattern(value) ? null : "is not a regular expression");
  if (TEXTS.includes(keyword)) return own(typeof value === "string" ? null : "is not a string");
  if (FLAGS.includes(keyword)) return own(typeof value === "boolean" ? null : "is not true or false");
  return null;
}

function typeProblem(value: unknown): string | null {
  const names = Array.isArray(value) ? value : [value];
  if (names.length === 0) return "is an empty list";
  for (const name of names) if (typeof name !== "string" || !TYPES.has(name)) return `${JSON.stringify(name)} is not a JSON Schema type (${[...TYPES].join(", ")})`;
  if (new Set(names).size !== names.length) return "names a type twice";
  return null;
}

function listProblem(list: unknown[], path: string[]): string | null {
  for (const [index, sub] of list.entries()) {
    const problem = schemaProblem(sub, [...path, String(index)]);
    if (problem) return problem;
  }
  return null;
}

function stringListProblem(value: unknown): string | null {
  if (!Array.isArray(value)) return "is not a list of property names";
  if (value.some((item) => typeof item !== "string")) return "holds something other than property names";
  if (new Set(value).size !== value.length) return "names a property twice";
  return null;
}

/** A pattern as JSON Schema means it (ECMA-262), tried with the `u` flag a validator uses, then without. */
function validPattern(pattern: string): boolean {
  for (const flags of ["u", ""]) {
    try {
      new RegExp(pattern, flags);
      return true;
    } catch {
      // try the next
    }
  }
  return false;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
