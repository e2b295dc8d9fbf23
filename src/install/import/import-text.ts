/**
 * The path rewrites of `bosun pack import`: text that names the runtime's folder becomes
 * `{config-dir}`, and a folder carried in the pack's `files/` becomes `{pack-dir}`. Pure: the
 * caller says where the folder is and what is carried.
 */

/** A folder of the runtime's folder carried in `files/`: `dir` relative to the runtime folder, `to` its place under `files/` ("" = `files/` itself). */
export interface CarriedFolder {
  dir: string;
  to: string;
}

export interface FolderNames {
  /** The runtime's folder, absolute. */
  configDir: string;
  /** The home folder: `~/<rel>` names the runtime folder when it is inside it. */
  home: string;
  carried: readonly CarriedFolder[];
}

const PATH_REST = String.raw`((?:/[A-Za-z0-9._@+-]+)*)`;
/** What may not come right after a folder name (so `~/.claude-old` is not `~/.claude`). */
const NAME_GOES_ON = String.raw`(?![A-Za-z0-9_-])`;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The runtime folder relative to the home folder (`.claude`), or null when it is not inside it. */
function homeRelative(names: FolderNames): string | null {
  const home = names.home.replace(/\/+$/, "");
  return names.configDir.startsWith(`${home}/`) ? names.configDir.slice(home.length + 1) : null;
}

/** `{pack-dir}…` or `{config-dir}…` for a path inside the runtime folder (`rest` starts with `/` or is empty). */
export function variableFor(rest: string, carried: readonly CarriedFolder[]): string {
  const inside = rest.slice(1);
  for (const folder of carried) {
    if (inside === folder.dir || inside.startsWith(`${folder.dir}/`)) {
      const tail = inside.slice(folder.dir.length);
      return `{pack-dir}${folder.to ? `/${folder.to}` : ""}${tail}`;
    }
  }
  return `{config-dir}${rest}`;
}

/** A path made only of characters a shell takes unquoted. */
const SHELL_SAFE = /^[A-Za-z0-9_./@%+=:,-]*$/;

/**
 * Rewrites every form that names the runtime folder: its absolute path, and when it is inside the
 * home folder `~/<rel>`, `$HOME/<rel>`, `${HOME}/<rel>` and `"$HOME"/<rel>` (not after a `-`, so
 * `${CLAUDE_CONFIG_DIR:-$HOME/.claude}` stays: it already follows the variable). bosun writes the
 * variables back as `~/…` in text and as absolute paths (shell-quoted when they must be) in
 * commands, so double quotes around a whole rewritten path are dropped when the rest of it needs
 * none; a `$HOME` form inside a longer quoted string (an odd number of `"` before it on its line) is left as it is (a `~` there would not expand).
 */
function rewritePaths(text: string, names: FolderNames): string {
  const prefixes = [escape(names.configDir)];
  const rel = homeRelative(names);
  const homeForms = rel === null ? [] : [String.raw`\$HOME/${escape(rel)}`, String.raw`\$\{HOME\}/${escape(rel)}`, String.raw`"\$HOME"/${escape(rel)}`];
  if (rel !== null) prefixes.push(`~/${escape(rel)}`, ...homeForms);
  const pattern = new RegExp(String.raw`("?)(?<![A-Za-z0-9_.~/$-])(${prefixes.join("|")})${NAME_GOES_ON}${PATH_REST}("?)`, "g");
  return text.replace(pattern, (match, open: string, prefix: string, rest: string, close: string, offset: number) => {
    const value = variableFor(rest, names.carried);
    const tail = value.slice(value.indexOf("}") + 1);
    if (open === '"' && close === '"' && SHELL_SAFE.test(tail)) return value;
    const shellForm = prefix.startsWith("$") || prefix.startsWith('"');
    if (shellForm && (open === '"' || insideQuotes(text, offset))) return match;
    return `${open}${value}${close}`;
  });
}

/** True when an odd number of double quotes comes before `offset` on its line (it is inside a quoted string). */
function insideQuotes(text: string, offset: number): boolean {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  let count = 0;
  for (let index = start; index < offset; index++) if (text[index] === '"' && text[index - 1] !== "\\") count++;
  return count % 2 === 1;
}

/** Text of a skill, command, agent or support file (see `rewritePaths`). */
export function rewriteText(text: string, names: FolderNames): string {
  return rewritePaths(text, names);
}

/** A hook or status line command (see `rewritePaths`). */
export function rewriteCommand(command: string, names: FolderNames): string {
  return rewritePaths(command, names);
}

/** True when the bytes are text bosun rewrites (UTF-8 without a NUL byte), as the pack loader decides. */
export function isText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
