import type { Env } from "../boot/paths.js";
import { redactSecrets, type Secret } from "./redact.js";
import { hasControls, openSequenceStart, plainView } from "./terminal-text.js";

/**
 * Environment variable names that hold credentials by convention. Their values are redacted even
 * when no provider or config names them: a token in the environment is a token wherever it came
 * from.
 */
export const SECRET_ENV_NAME = /(^|_)(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)(_|$)/i;

export interface SecretSources {
  env: Env;
  /** Env vars that hold provider credentials (from the catalog). */
  credentialEnvVars: string[];
  /** Env vars named in `bosun.json` `secrets`. */
  configuredEnvVars: string[];
  /** Credentials bosun stores itself (`bosun auth`), by provider. */
  storedCredentials: () => Promise<Secret[]>;
  /** Values the run already holds, e.g. the model's API key. */
  extra?: Secret[];
}

/**
 * Every value bosun knows to be secret: provider credentials from the environment and from
 * bosun's own store, the env vars the user listed in `bosun.json` `secrets`, and env vars whose
 * names say they hold a key or token.
 */
export async function collectSecrets(sources: SecretSources): Promise<Secret[]> {
  const secrets: Secret[] = [];
  const fromEnv = (name: string) => {
    const value = sources.env[name];
    if (value) secrets.push({ name, value });
  };
  for (const name of sources.credentialEnvVars) fromEnv(name);
  for (const name of sources.configuredEnvVars) fromEnv(name);
  for (const name of Object.keys(sources.env)) if (SECRET_ENV_NAME.test(name)) fromEnv(name);
  secrets.push(...(await sources.storedCredentials()));
  // Named by where they came from when a value is known twice: env var names say the most.
  secrets.push(...(sources.extra ?? []));
  return dedupe(secrets);
}

function dedupe(secrets: Secret[]): Secret[] {
  const seen = new Set<string>();
  return secrets.filter((secret) => (seen.has(secret.value) ? false : (seen.add(secret.value), true)));
}

/** Redacts text, and every string inside structured values (messages, log fields, tool input). */
export class Redactor {
  constructor(readonly secrets: readonly Secret[]) {}

  text(text: string): string {
    return redactSecrets(text, this.secrets);
  }

  /** A copy of `value` with every string redacted (objects and arrays are copied only when changed). */
  deep<T>(value: T): T {
    if (this.secrets.length === 0) return value;
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === "string") return this.text(value);
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((item) => {
        const next = this.walk(item);
        if (next !== item) changed = true;
        return next;
      });
      return changed ? out : value;
    }
    if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const next = this.walk(item);
        if (next !== item) changed = true;
        out[key] = next;
      }
      return changed ? out : value;
    }
    return value;
  }
}

/**
 * Redacts a text that arrives in chunks (a command's output on its way to a spill file). A secret
 * may be split across two chunks, so the end of each chunk that could be the start of a secret
 * (ignoring control sequences, as `redactSecrets` does) is held back until the next chunk shows
 * whether it is one, and so is an escape sequence the chunk ends inside of.
 */
export function createStreamRedactor(redactor: Redactor): { push(chunk: string): string; end(): string } {
  const values = redactor.secrets.map((secret) => secret.value);
  let pending = "";
  /** Where the part of `text` that may continue into the next chunk starts. */
  const heldFrom = (text: string): number => {
    const { plain, at } = hasControls(text) ? plainView(text) : { plain: text, at: null };
    let keep = 0;
    for (const value of values) {
      for (let k = Math.min(value.length - 1, plain.length); k > keep; k--) {
        if (plain.endsWith(value.slice(0, k))) {
          keep = k;
          break;
        }
      }
    }
    const prefixStart = keep === 0 ? text.length : at ? at[plain.length - keep]! : text.length - keep;
    const open = openSequenceStart(text);
    // An escape sequence that never ends (a stray ESC before a long run of text) is not waited for.
    return open >= 0 && text.length - open <= MAX_OPEN_SEQUENCE ? Math.min(open, prefixStart) : prefixStart;
  };
  return {
    push(chunk) {
      if (values.length === 0) return chunk;
      pending += chunk;
      const cut = heldFrom(pending);
      const ready = pending.slice(0, cut);
      pending = pending.slice(cut);
      return redactor.text(ready);
    },
    end() {
      const rest = redactor.text(pending);
      pending = "";
      return rest;
    },
  };
}

/** The longest escape sequence held back waiting for its end (OSC hyperlinks carry a URL). */
const MAX_OPEN_SEQUENCE = 4_096;
