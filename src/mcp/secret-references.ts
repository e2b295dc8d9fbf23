import { SECRET_ENV_NAME } from "../kernel/redact/secrets.js";

/**
 * A reference to a secret inside an MCP server's env value or header: `{env:NAME}` (a variable of
 * the user's environment) or `{file:PATH}` (the contents of a file, an absolute path or `~/…`).
 * A server entry holds references, never the secret: each agent gets the reference in its own
 * syntax, and bosun's own loop reads the value only when it starts the server.
 */
export type SecretReference = { kind: "env"; name: string } | { kind: "file"; path: string };

/** One piece of a value: literal text, or a reference. */
export type ValuePart = { text: string } | { ref: SecretReference };

const ANY_REFERENCE = /\{(env|file):([^{}]*)\}/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** A long opaque run (a key, a token, a JWT part). */
const KEY_SHAPE = /[A-Za-z0-9_\-+=/.]{32,}/;
/** Headers that carry credentials whatever their value looks like. */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|x-api-key|api-key|x-auth-token|.*-token|.*-key|.*-secret)$/i;
/** The scheme words a credential header starts with (`Bearer {env:TOKEN}`). */
const AUTH_SCHEME = /^(bearer|basic|token|apikey|api-key)?\s*$/i;

/** Why a reference is not one bosun can follow, or null. */
export function referenceProblem(ref: SecretReference): string | null {
  if (ref.kind === "env") return ENV_NAME.test(ref.name) ? null : `{env:${ref.name}} does not name an environment variable (letters, digits and '_', not starting with a digit)`;
  if (ref.path.startsWith("/") || ref.path.startsWith("~/")) return ref.path.includes("\0") ? `{file:…} holds a NUL character` : null;
  return `{file:${ref.path}} must be an absolute path or start with ~/`;
}

/**
 * A value cut into literal text and references. An opening `{env:` or `{file:` that is not a
 * whole reference, or a reference bosun cannot follow, is an error (thrown as one line).
 */
export function valueParts(value: string): ValuePart[] {
  const parts: ValuePart[] = [];
  let at = 0;
  for (const match of value.matchAll(ANY_REFERENCE)) {
    if (match.index > at) parts.push({ text: value.slice(at, match.index) });
    const ref: SecretReference = match[1] === "env" ? { kind: "env", name: match[2] as string } : { kind: "file", path: match[2] as string };
    const problem = referenceProblem(ref);
    if (problem) throw new Error(problem);
    parts.push({ ref });
    at = match.index + match[0].length;
  }
  if (at < value.length) parts.push({ text: value.slice(at) });
  const rest = parts.map((part) => ("text" in part ? part.text : "")).join("");
  const unknown = /\{([a-z]+):[^{}]*\}/.exec(rest);
  if (unknown) throw new Error(`{${unknown[1]}:…} is not a reference bosun knows (use {env:NAME} or {file:PATH})`);
  return parts;
}

/** The references of a value, in order. */
export function referencesOf(value: string): SecretReference[] {
  return valueParts(value).flatMap((part) => ("ref" in part ? [part.ref] : []));
}

/**
 * Why a value of an env variable (`kind: "env"`) or header (`kind: "header"`) named `name` holds a
 * secret in clear, or null. Any value may mix text and references; the literal text is refused
 * when it is shaped like a key, or when the variable or header carries credentials (its name says
 * so) and the text is more than an auth scheme word.
 */
export function literalSecretProblem(kind: "env" | "header", name: string, value: string): string | null {
  const literal = valueParts(value)
    .map((part) => ("text" in part ? part.text : " "))
    .join("");
  const fix = kind === "env" ? `write {env:${name}} (the variable of that name from your environment) or {file:PATH}` : `write it as a reference, e.g. "Bearer {env:TOKEN}", or {file:PATH}`;
  if (KEY_SHAPE.test(literal)) return `looks like a key or token in clear; ${fix}`;
  const secretName = kind === "env" ? SECRET_ENV_NAME.test(name) : SECRET_HEADER.test(name);
  if (secretName && literal.trim() !== "" && !AUTH_SCHEME.test(literal.trim())) return `carries a credential by its name but holds text, not a reference; ${fix}`;
  return null;
}
