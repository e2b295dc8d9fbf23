/**
 * Text meant for a terminal (a command's output) as plain text. Colour codes, cursor moves,
 * titles and other control sequences restyle or redraw the terminal; bosun never writes them on
 * from a command, and secrets are matched on what is left when they are taken out (a secret
 * that `grep --color` highlighted in part is still one secret).
 */

// CSI (colours, cursor moves), OSC (titles, hyperlinks) ended by BEL or ST, any other escape
// sequence, then single control characters other than newline and tab (C0, DEL, C1).
// eslint-disable-next-line no-control-regex
const CONTROL = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[ -/]*[0-~]|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const HAS_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** An escape sequence that has begun but not ended at the end of the text. */
// eslint-disable-next-line no-control-regex
const OPEN_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*|\][^\u0007\u001b]*\u001b?|[ -/]*)$/;

/** Whether `text` holds anything but printable characters, newlines and tabs. */
export function hasControls(text: string): boolean {
  return HAS_CONTROL.test(text);
}

/** `text` without its control sequences and characters (newlines and tabs stay), and where each character left came from. */
export function plainView(text: string): { plain: string; at: Int32Array } {
  // A typed array: a long output has a million positions, and pushing them one by one costs more than the search.
  const at = new Int32Array(text.length);
  let length = 0;
  let from = 0;
  for (const match of text.matchAll(CONTROL)) {
    for (let i = from; i < match.index; i++) at[length++] = i;
    from = match.index + match[0].length;
  }
  for (let i = from; i < text.length; i++) at[length++] = i;
  return { plain: text.replace(CONTROL, ""), at: at.subarray(0, length) };
}

/** Where an escape sequence still open at the end of `text` starts (it may end in the next chunk), or -1. */
export function openSequenceStart(text: string): number {
  return OPEN_SEQUENCE.exec(text)?.index ?? -1;
}

/**
 * One line of output as a terminal leaves it visible: what the last carriage return did not
 * overwrite, without control sequences, tabs as two spaces.
 */
export function visibleLine(line: string): string {
  const visible = line.split("\r").filter((part) => part !== "").at(-1) ?? "";
  return plainView(visible).plain.replace(/\t/g, "  ");
}
