import { readRegularFile, UnusableFileError } from "../../kernel/fs/regular-file.js";
import { displayPath, expandHome, type Env } from "../../kernel/paths.js";
import type { Secret } from "../../kernel/redact/redact.js";
import { describeError } from "../../kernel/errors.js";
import type { ConfiguredServer } from "../configured-servers.js";
import { isRemote } from "../server-schema.js";
import { valueParts, type SecretReference } from "../secret-references.js";
import { McpServerError } from "./errors.js";

/** A server's env values (a command) or headers (a URL), with every reference replaced by what it refers to. */
export interface ResolvedValues {
  values: Record<string, string>;
  /** What the references stood for, named for the redactor: no session, log or output line shows them. */
  secrets: Secret[];
}

export interface ReferenceSources {
  /** Where `{env:NAME}` looks: bosun's environment (the shell's, with bosun's `.env`). */
  env: Env;
  home: string;
  /** Reads a `{file:PATH}` (default: a regular file of at most 64 KiB, as UTF-8). */
  readFile?: (path: string) => string;
}

/** A secret file is a key or a token: anything larger is not one. */
const MAX_SECRET_FILE_BYTES = 64 * 1024;

/**
 * The server's env values or headers with their references resolved: `{env:NAME}` from the
 * environment, `{file:PATH}` from the file, its final line break dropped (an editor adds one).
 * A variable that is not set (or empty) or a file bosun cannot read is an `McpServerError`
 * naming the field, the reference and the file that declared the server.
 */
export function resolveServerValues(configured: ConfiguredServer, sources: ReferenceSources): ResolvedValues {
  const { server } = configured;
  const [field, entries] = isRemote(server) ? ["headers", server.headers ?? {}] : ["env", server.env ?? {}];
  const values: Record<string, string> = {};
  const secrets: Secret[] = [];
  for (const [name, value] of Object.entries(entries)) {
    let resolved = "";
    for (const part of valueParts(value)) {
      if ("text" in part) {
        resolved += part.text;
        continue;
      }
      const secret = referredValue(part.ref, sources);
      if ("problem" in secret) throw new McpServerError(configured.name, displayPath(configured.file, sources.home), `${field}.${name} refers to ${shown(part.ref)}, ${secret.problem}`);
      secrets.push({ name: part.ref.kind === "env" ? part.ref.name : `mcp.${configured.name}.${field}.${name}`, value: secret.value });
      resolved += secret.value;
    }
    values[name] = resolved;
  }
  return { values, secrets };
}

function referredValue(ref: SecretReference, sources: ReferenceSources): { value: string } | { problem: string } {
  if (ref.kind === "env") {
    const value = sources.env[ref.name];
    return value ? { value } : { problem: value === "" ? "which is empty" : "which is not set in bosun's environment (nor in its .env)" };
  }
  const path = expandHome(ref.path, sources.home);
  try {
    const text = (sources.readFile ?? readSecretFile)(path).replace(/\r?\n$/, "");
    return text === "" ? { problem: `which is empty (${path})` } : { value: text };
  } catch (error) {
    return { problem: `which cannot be read (${path}: ${fileProblem(error)})` };
  }
}

function readSecretFile(path: string): string {
  return readRegularFile(path, MAX_SECRET_FILE_BYTES).toString("utf8");
}

function fileProblem(error: unknown): string {
  if (error instanceof UnusableFileError) return error.problem;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return "no such file";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  return describeError(error);
}

function shown(ref: SecretReference): string {
  return ref.kind === "env" ? `{env:${ref.name}}` : `{file:${ref.path}}`;
}
