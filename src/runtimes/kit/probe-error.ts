/**
 * A detection problem whose message is safe to show: it names paths, variables and reasons,
 * never a credential's content. Anything else that escapes an adapter is reported by name only.
 */
export class ProbeError extends Error {
  override name = "ProbeError";
}

const ANSI_ESCAPE = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
const CONTROL_OR_SPACE = /[\s\u0000-\u001f\u007f-\u009f]+/g;

/** One line of display text: terminal escapes dropped, control characters and runs of space made one space, long text cut. */
export function oneLine(text: string, maxLength = 300): string {
  const flat = text.replace(ANSI_ESCAPE, "").replace(CONTROL_OR_SPACE, " ").trim();
  return flat.length > maxLength ? `${flat.slice(0, maxLength - 1)}…` : flat;
}

/** The text to show for a failed check: a `ProbeError`'s message, otherwise only what kind of failure it was. */
export function displaySafeError(error: unknown): string {
  if (error instanceof ProbeError) return oneLine(error.message);
  const name = error instanceof Error ? error.name : typeof error;
  return `status check failed (${oneLine(name, 40)})`;
}
