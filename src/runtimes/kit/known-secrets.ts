import type { Env } from "../../kernel/paths.js";
import type { Secret } from "../../kernel/redact/redact.js";
import { MAX_CREDENTIAL_BYTES, type FileReader } from "./detect/file-reader.js";
import { parseJson } from "./detect/secret-rules.js";

// Variable names that hold credentials by convention, beyond the ones adapters check.
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i;

/**
 * Every secret value bosun can know of before it relays an agent CLI's own words: values of
 * credential-like environment variables (and of `names`), and every string in the given JSON
 * credential files. Used only to redact; the values go nowhere else.
 */
export function knownSecrets(env: Env, names: Iterable<string>, files: FileReader, jsonFiles: readonly string[]): Secret[] {
  const secrets: Secret[] = [];
  const wanted = new Set(names);
  for (const [name, value] of Object.entries(env)) {
    if (value && (wanted.has(name) || SECRET_NAME.test(name))) secrets.push({ name, value });
  }
  for (const file of jsonFiles) {
    let text: string;
    try {
      if (files.stat(file)?.kind !== "file") continue;
      text = files.readText(file, MAX_CREDENTIAL_BYTES);
    } catch {
      continue;
    }
    const parsed = parseJson(text);
    if (parsed) collectStrings(parsed.value, "credential", secrets);
  }
  return secrets;
}

function collectStrings(root: unknown, name: string, into: Secret[]): void {
  const pending: [unknown, string][] = [[root, name]];
  while (pending.length > 0) {
    const [value, key] = pending.pop()!;
    if (typeof value === "string") into.push({ name: key, value });
    else if (Array.isArray(value)) for (const item of value) pending.push([item, key]);
    else if (typeof value === "object" && value !== null) for (const [child, item] of Object.entries(value)) pending.push([item, child]);
  }
}
