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

/**
 * Text of a skill, command, agent or support file: the absolute path of the runtime folder and
 * `~/<its path from home>` are rewritten; `$HOME/…` and `${HOME}/…` are left as they are (a
 * shell expands them; `{config-dir}` is written as `~/…` in text, which a shell does not expand
 * inside quotes).
 */
export function rewriteText(text: string, names: FolderNames): string {
  const prefixes = [escape(names.configDir)];
  const rel = homeRelative(names);
  if (rel !== null) prefixes.push(`~/${escape(rel)}`);
  const pattern = new RegExp(String.raw`(?<![A-Za-z0-9_.~/$-])(?:${prefixes.join("|")})${NAME_GOES_ON}${PATH_REST}`, "g");
  return text.replace(pattern, (_match, rest: string) => variableFor(rest, names.carried));
}

/** A path made only of characters a shell takes unquoted (bosun quotes `{pack-dir}` itself). */
const SHELL_SAFE = /^[A-Za-z0-9_./@%+=:,-]*$/;

/**
 * A hook or status line command: as in text, plus `$HOME/…`, `${HOME}/…` and `"$HOME"/…`. bosun
 * writes `{pack-dir}` and `{config-dir}` in commands as absolute paths, shell-quoted when they
 * must be, so double quotes around a whole rewritten path are dropped when the rest of it needs none.
 */
export function rewriteCommand(command: string, names: FolderNames): string {
  const prefixes = [escape(names.configDir)];
  const rel = homeRelative(names);
  if (rel !== null) prefixes.push(`~/${escape(rel)}`, String.raw`\$HOME/${escape(rel)}`, String.raw`\$\{HOME\}/${escape(rel)}`, String.raw`"\$HOME"/${escape(rel)}`);
  const pattern = new RegExp(String.raw`("?)(?<![A-Za-z0-9_.~/$-])(?:${prefixes.join("|")})${NAME_GOES_ON}${PATH_REST}("?)`, "g");
  return command.replace(pattern, (_match, open: string, rest: string, close: string) => {
    const value = variableFor(rest, names.carried);
    const tail = value.slice(value.indexOf("}") + 1);
    if (open === '"' && close === '"' && SHELL_SAFE.test(tail)) return value;
    return `${open}${value}${close}`;
  });
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
