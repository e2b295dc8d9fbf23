import { literalPattern } from "./literal-pattern.js";
import { hasControls, plainView } from "../terminal-text.js";

/** One value bosun knows to be secret, and the name it is shown by once redacted. */
export interface Secret {
  name: string;
  value: string;
}

/** Values shorter than this are not redacted: they would blank out ordinary words and numbers. */
export const MIN_SECRET_LENGTH = 4;

/** Secrets at least this long also count by their first and last MASKED_FORM_LENGTH characters. */
export const MASKED_FORM_MIN_LENGTH = 16;

/** How many characters a CLI that masks a key leaves visible at either end (`sk-proj-Q7v9…cD3eF5gH`). */
export const MASKED_FORM_LENGTH = 8;

/** One place a secret was found: `text.slice(start, end)` is replaced by the marker for `name`. */
export interface SecretSpan {
  start: number;
  end: number;
  name: string;
}

/** The search for one secrets array: every string that counts as a secret, and whose it is. */
interface Compiled {
  pattern: RegExp;
  names: Map<string, string>;
}

const compiled = new WeakMap<readonly Secret[], Compiled | null>();

// A URL starts and ends with its scheme, host and path, which are no secret.
const URL_START = /^[a-z][a-z\d+.-]*:\/\//i;
// Letters only, in one case or capitalised: as likely a word of the text as a piece of a key.
const WORD = /^(?:[A-Z]?[a-z]+|[A-Z]+)$/;

/**
 * The parts of a secret value that count as the secret on their own: its first and last
 * MASKED_FORM_LENGTH characters, what a CLI shows of a key it masks (`sk-ant-…XyZ12345`). Only a
 * single token of MASKED_FORM_MIN_LENGTH characters or more has them, and only an end that is not
 * a plain word (`verifier-0c4f…` keeps `verifier` readable): the ends of a shorter value, a
 * passphrase with spaces, a multi-line key file or a URL are ordinary text too often.
 */
export function maskedForms(value: string): string[] {
  if (value.length < MASKED_FORM_MIN_LENGTH || /\s/.test(value) || URL_START.test(value)) return [];
  return [value.slice(0, MASKED_FORM_LENGTH), value.slice(-MASKED_FORM_LENGTH)].filter((form) => !WORD.test(form));
}

/**
 * Replaces every occurrence of each secret, whole or in a masked form (its first or last eight
 * characters, see `maskedForms`), in `text` by `[redacted:NAME]`. Where several start at the same
 * place the longest is replaced, so a secret that contains another, or that starts with another
 * one's masked form, is redacted whole. A secret broken up by control sequences
 * (`sk-very\x1b[1msecret`, as a terminal shows it: `sk-verysecret`) is found in the text without
 * them, and the whole stretch it spans is replaced, sequences and all. The search for a given
 * secrets array is built once and reused, so redacting every tool result stays cheap.
 */
export function redactSecrets(text: string, secrets: readonly Secret[]): string {
  return replaceSpans(text, findSecrets(text, secrets));
}

/**
 * Where `redactSecrets` replaces something in `text`, in order, none overlapping. `view` is
 * `plainView(text)` when the caller already has it.
 *
 * Text with control sequences is searched twice at once, as it stands and as a terminal shows
 * it: the secret that begins first wins, and of two that begin at the same place the longer (a
 * whole value with a colour code inside wins over the masked form before the code).
 */
export function findSecrets(text: string, secrets: readonly Secret[], view?: ReturnType<typeof plainView>): SecretSpan[] {
  const entry = compiledFor(secrets);
  if (!entry || text.length === 0) return [];
  const { pattern, names } = entry;
  const spans: SecretSpan[] = [];
  if (!view && !hasControls(text)) {
    for (const match of text.matchAll(pattern)) spans.push({ start: match.index, end: match.index + match[0].length, name: names.get(match[0])! });
    return spans;
  }
  const { plain, at } = view ?? plainView(text);
  const inText = new RegExp(pattern);
  const inPlain = new RegExp(pattern);
  let reached = 0;
  let found = inText.exec(text);
  let shown = inPlain.exec(plain);
  for (;;) {
    if (found && found.index < reached) {
      inText.lastIndex = reached;
      found = inText.exec(text);
    }
    if (shown && at[shown.index]! < reached) {
      inPlain.lastIndex = firstAtOrAfter(at, reached);
      shown = inPlain.exec(plain);
    }
    if (!found && !shown) return spans;
    const foundStart = found ? found.index : Infinity;
    const shownStart = shown ? at[shown.index]! : Infinity;
    if (shown && (shownStart < foundStart || (shownStart === foundStart && shown[0].length > found![0].length))) {
      reached = at[shown.index + shown[0].length - 1]! + 1;
      spans.push({ start: shownStart, end: reached, name: names.get(shown[0])! });
    } else {
      reached = foundStart + found![0].length;
      spans.push({ start: foundStart, end: reached, name: names.get(found![0])! });
    }
  }
}

/** The first index of the ascending `at` whose entry is `position` or more (`at.length` if none). */
function firstAtOrAfter(at: ArrayLike<number>, position: number): number {
  let low = 0;
  let high = at.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (at[middle]! < position) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** `text` with each span (in order, none overlapping) replaced by `[redacted:NAME]`. */
export function replaceSpans(text: string, spans: readonly SecretSpan[]): string {
  if (spans.length === 0) return text;
  let out = "";
  let from = 0;
  for (const span of spans) {
    out += `${text.slice(from, span.start)}[redacted:${span.name}]`;
    from = span.end;
  }
  return out + text.slice(from);
}

/** Every string that counts as one of `secrets` (values long enough, and their masked forms), each once. */
export function secretForms(secrets: readonly Secret[]): string[] {
  return [...(compiledFor(secrets)?.names.keys() ?? [])];
}

function compiledFor(secrets: readonly Secret[]): Compiled | null {
  let entry = compiled.get(secrets);
  if (entry === undefined) {
    entry = compile(secrets);
    compiled.set(secrets, entry);
  }
  return entry;
}

function compile(secrets: readonly Secret[]): Compiled | null {
  const names = new Map<string, string>();
  const add = (form: string, name: string) => {
    if (form.length >= MIN_SECRET_LENGTH && !names.has(form)) names.set(form, name);
  };
  // Whole values first: a value that is also another secret's masked form keeps its own name.
  for (const secret of secrets) add(secret.value, secret.name);
  for (const secret of secrets) for (const form of maskedForms(secret.value)) add(form, secret.name);
  if (names.size === 0) return null;
  return { pattern: literalPattern(names.keys()), names };
}
