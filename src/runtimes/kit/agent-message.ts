import { redactSecrets, type Secret } from "../../kernel/redact/redact.js";
import { oneLine } from "./probe-error.js";

// A key an agent CLI masked itself (`sk-fake-***lmnop`): its visible ends are still parts of a key.
const MASKED_FRAGMENT = /\S*\*{3,}\S*/g;
// Long opaque runs (keys, tokens, JWT parts) that no redaction list named.
export const OPAQUE_RUN = /[A-Za-z0-9_\-+=]{32,}/g;

/**
 * What bosun relays of an agent CLI's own output (e.g. `codex logout`'s stderr): known secrets
 * redacted, masked fragments and long opaque runs removed, one short line.
 */
export function relayAgentMessage(text: string, secrets: readonly Secret[], maxLength = 200): string {
  const redacted = redactSecrets(text, secrets).replace(MASKED_FRAGMENT, "[redacted]").replace(OPAQUE_RUN, "[redacted]");
  const lines = redacted
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  return oneLine(lines.slice(0, 3).join(" / "), maxLength);
}
