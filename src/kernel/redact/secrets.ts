import type { Env } from "../paths.js";
import { findSecrets, MIN_SECRET_LENGTH, redactSecrets, replaceSpans, secretForms, type Secret } from "./redact.js";
import { hasControls, openSequenceStart, plainView } from "../terminal-text.js";
import { urlPassword } from "./url-password.js";

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
 * bosun's own store, the env vars the user listed in `bosun.json` `secrets`, env vars whose
 * names say they hold a key or token, and env vars whose value is a URL with a password (the URL
 * and, when long enough to redact, the password on its own, both named by the variable).
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
  for (const [name, value] of Object.entries(sources.env)) {
    const password = value ? urlPassword(value) : null;
    if (password === null) continue;
    secrets.push({ name, value: value! });
    if (password.length >= MIN_SECRET_LENGTH) secrets.push({ name, value: password });
  }
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
 * Redacts a text that arrives in chunks (a command's output on its way to a spill file), with the
 * same result as redacting it whole. A secret may be split across two chunks, so the end of each
 * chunk that could be the start of a secret or of a masked form (ignoring control sequences, as
 * `redactSecrets` does) is held back until the next chunk shows whether it is one, and so is an
 * escape sequence the chunk ends inside of, and a secret found whole that begins before the held
 * part (the next chunk cannot change it, but cutting it would).
 */
export function createStreamRedactor(redactor: Redactor): { push(chunk: string): string; end(): string } {
  const secrets = redactor.secrets;
  const heldTail = tailMatcher(secretForms(secrets));
  let pending = "";
  return {
    push(chunk) {
      if (heldTail === null) return chunk;
      pending += chunk;
      // An escape sequence that never ends (a stray ESC before a long run of text) is not waited for.
      const open = openSequenceStart(pending);
      const text = open >= 0 && pending.length - open <= MAX_OPEN_SEQUENCE ? pending.slice(0, open) : pending;
      const view = hasControls(text) ? plainView(text) : null;
      let cut = text.length - heldTail(text);
      if (view) {
        const keep = heldTail(view.plain);
        if (keep > 0) cut = Math.min(cut, view.at[view.plain.length - keep]!);
      }
      const spans = findSecrets(text, secrets, view ?? undefined);
      const ready: typeof spans = [];
      for (const span of spans) {
        if (span.end > cut) {
          if (span.start < cut) cut = span.start;
          break;
        }
        ready.push(span);
      }
      const out = replaceSpans(pending.slice(0, cut), ready);
      pending = pending.slice(cut);
      return out;
    },
    end() {
      const rest = redactor.text(pending);
      pending = "";
      return rest;
    },
  };
}

/**
 * For the strings `forms`, a function telling how long the longest end of a text is that is the
 * start of one of them but not all of it: what may still become a secret with the next chunk.
 * Null when there is nothing to look for.
 */
function tailMatcher(forms: readonly string[]): ((text: string) => number) | null {
  if (forms.length === 0) return null;
  // By their last character, every proper start of every form, longest first.
  const starts = new Map<string, { form: string; length: number }[]>();
  for (const form of forms) {
    for (let length = 1; length < form.length; length++) {
      const last = form[length - 1]!;
      let list = starts.get(last);
      if (!list) starts.set(last, (list = []));
      list.push({ form, length });
    }
  }
  for (const list of starts.values()) list.sort((a, b) => b.length - a.length);
  return (text) => {
    const candidates = starts.get(text.at(-1) ?? "");
    if (!candidates) return 0;
    for (const { form, length } of candidates) {
      if (length > text.length) continue;
      let i = length - 2;
      const offset = text.length - length;
      while (i >= 0 && form.charCodeAt(i) === text.charCodeAt(offset + i)) i--;
      if (i < 0) return length;
    }
    return 0;
  };
}

/** The longest escape sequence held back waiting for its end (OSC hyperlinks carry a URL). */
const MAX_OPEN_SEQUENCE = 4_096;
