import { readRegularFile } from "./regular-file.js";

/** Who bosun runs as: the files that may change what it does must be theirs alone. */
export interface FileUser {
  uid: number;
  gid: number;
  /** Whether `gid` is the user's private group (see `isPrivateGroup`); asked only when a file only that group can write turns up. */
  groupIsPrivate(): boolean;
}

/** A file's owner, group and mode, as `stat` gives them. */
export interface FileOwnership {
  uid: number;
  gid: number;
  mode: number;
}

/** Where the user and group accounts are listed. */
export interface AccountFiles {
  passwd: string;
  group: string;
}

export const SYSTEM_ACCOUNTS: AccountFiles = { passwd: "/etc/passwd", group: "/etc/group" };

const MAX_ACCOUNTS_BYTES = 16 * 1024 * 1024;

/** The user this process runs as (null where there are no uids); `accounts` are read at most once, and only when needed. */
export function currentFileUser(accounts: AccountFiles = SYSTEM_ACCOUNTS): FileUser | null {
  if (!process.getuid || !process.getgid) return null;
  const uid = process.getuid();
  const gid = process.getgid();
  let isPrivate: boolean | undefined;
  return { uid, gid, groupIsPrivate: () => (isPrivate ??= isPrivateGroup(uid, gid, readAccounts(accounts.passwd), readAccounts(accounts.group))) };
}

/**
 * Why someone other than `user` could have changed the file, as the rest of a sentence starting
 * "it", or null when only the user (and root) can: it belongs to another user, others can write
 * it, or a group can that is not the user's private group. A file only the user's private group
 * can write is the norm where every user has a group of their own and the umask is 002 (Debian's
 * and Ubuntu's default); where the primary group is shared (`users`), its members could write it.
 */
export function untrustedBecause(file: FileOwnership, user: FileUser | null): string | null {
  if (user !== null && file.uid !== user.uid) return `belongs to user ${file.uid}, not to you (user ${user.uid}); chown it to yourself if you trust it`;
  const ownGroup = user !== null && file.gid === user.gid;
  const groupWritable = (file.mode & 0o020) !== 0 && !(ownGroup && user.groupIsPrivate());
  const othersWritable = (file.mode & 0o002) !== 0;
  if (!groupWritable && !othersWritable) return null;
  const group = ownGroup ? `your group ${file.gid}, which is not yours alone` : `group ${file.gid}`;
  const who = [...(groupWritable ? [group] : []), ...(othersWritable ? ["others"] : [])].join(" and ");
  return `is writable by ${who} (mode ${(file.mode & 0o777).toString(8).padStart(4, "0")}); chmod go-w it if you trust it`;
}

/**
 * Whether group `gid` is the private group of user `uid`, from the texts of /etc/passwd and
 * /etc/group: the group is named as the user is, lists no member but the user, and is no other
 * user's primary group. A user or group not listed there (a directory service's) is not known to
 * be private.
 */
export function isPrivateGroup(uid: number, gid: number, passwdText: string, groupText: string): boolean {
  const users = accountLines(passwdText).map(([name, , id, group]) => ({ name, uid: accountId(id), gid: accountId(group) }));
  const name = users.find((user) => user.uid === uid)?.name;
  if (!name || users.some((user) => user.uid !== uid && user.gid === gid)) return false;
  const groups = accountLines(groupText).filter(([, , id]) => accountId(id) === gid);
  return groups.length > 0 && groups.every(([groupName, , , members = ""]) => groupName === name && members.split(",").every((member) => member.trim() === "" || member.trim() === name));
}

/** The colon-separated fields of each entry (comments and blank lines left out). */
function accountLines(text: string): string[][] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"))
    .map((line) => line.split(":"));
}

/** A uid or gid field; NaN for anything but digits (a `+` NIS line's empty field is not 0). */
function accountId(field: string | undefined): number {
  return field !== undefined && /^\d+$/.test(field) ? Number(field) : Number.NaN;
}

function readAccounts(file: string): string {
  try {
    return readRegularFile(file, MAX_ACCOUNTS_BYTES).toString("utf8");
  } catch {
    return "";
  }
}
