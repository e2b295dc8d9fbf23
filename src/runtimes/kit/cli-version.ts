import type { CliContract, ContractEdition } from "./install-types.js";

/** What bosun found out about an installed CLI's version (see src/install/cli-version-read.ts, which runs `--version` when it must: detection never starts a process). */
export type CliVersionReading =
  /** The CLI is not on PATH (nor where `bosun.json` says): nothing to read, nothing to say. */
  | { kind: "absent" }
  | { kind: "read"; path: string; version: string; from: "package.json" | "--version" }
  /** It is there, but its version could not be told: `problem` says why, in one line. */
  | { kind: "unknown"; path: string; problem: string };

/** The edition bosun writes for one runtime, and why when it is not simply the CLI's own. */
export interface EditionChoice {
  edition: ContractEdition;
  /** A line for the plan when bosun had to guess (an unreadable, older or newer version); else null. */
  note: string | null;
}

// A version standing alone (`v1.2.3` too), not part of a longer dotted number or word.
const SEMVER = /(?<![\w.])v?((\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?)(?![\w.])/;

/** The first `major.minor.patch[-pre]` in a CLI's output, or null (an answer without one is garbage). */
export function parseVersion(text: string): string | null {
  const match = SEMVER.exec(text);
  return match ? (match[1] as string) : null;
}

/** Orders two versions as semver does (a pre-release comes before its release); null when either is not a version. */
export function compareVersions(a: string, b: string): number | null {
  const left = SEMVER.exec(a);
  const right = SEMVER.exec(b);
  if (!left || !right || left[1] !== a.trim() || right[1] !== b.trim()) return null;
  for (let part = 2; part <= 4; part++) {
    const diff = Number(left[part]) - Number(right[part]);
    if (diff !== 0) return Math.sign(diff);
  }
  return comparePre(left[5], right[5]);
}

function comparePre(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  const x = a.split(".");
  const y = b.split(".");
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] === undefined) return -1;
    if (y[i] === undefined) return 1;
    const numeric = /^\d+$/.test(x[i] as string) && /^\d+$/.test(y[i] as string);
    const diff = numeric ? Number(x[i]) - Number(y[i]) : (x[i] as string) < (y[i] as string) ? -1 : (x[i] as string) > (y[i] as string) ? 1 : 0;
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}

/** "0.114.0 – 0.123.x", "0.124.0 and newer": the span of versions an edition holds for. */
export function editionSpan(cli: CliContract, edition: ContractEdition): string {
  const next = cli.editions[cli.editions.indexOf(edition) + 1];
  if (!next) return `${edition.since} and newer`;
  const [major, minor] = next.since.split(".").map(Number) as [number, number];
  const before = minor > 0 ? `${major}.${minor - 1}.x` : `before ${next.since}`;
  return `${edition.since} – ${before}`;
}

/**
 * The edition for what was read: the one whose span holds the version. A CLI that is not there
 * gets the newest silently (it is what a CLI installed later will most likely be); one whose
 * version cannot be read, or that is older than every edition or newer than every version bosun
 * checked, gets the nearest edition and a note saying so.
 */
export function chooseEdition(title: string, cli: CliContract, reading: CliVersionReading): EditionChoice {
  const newest = cli.editions.at(-1) as ContractEdition;
  const oldest = cli.editions[0] as ContractEdition;
  if (reading.kind === "absent") return { edition: newest, note: null };
  if (reading.kind === "unknown") return { edition: newest, note: `could not tell which ${title} version ${reading.path} is (${reading.problem}): bosun wrote its newest contract (for ${editionSpan(cli, newest)})` };
  const version = reading.version;
  if ((compareVersions(version, oldest.since) ?? 0) < 0) {
    return { edition: oldest, note: `${title} ${version} is older than ${oldest.since}, the oldest version bosun's contract covers: bosun wrote its oldest contract (for ${editionSpan(cli, oldest)}); upgrade ${title} if the runtime does not load what bosun installed` };
  }
  const edition = [...cli.editions].reverse().find((candidate) => (compareVersions(version, candidate.since) ?? -1) >= 0) ?? newest;
  const checked = cli.editions.flatMap((candidate) => candidate.verified);
  const newestChecked = checked.reduce<string | null>((max, candidate) => (max === null || (compareVersions(candidate, max) ?? 0) > 0 ? candidate : max), null);
  if (edition === newest && newestChecked !== null && (compareVersions(version, newestChecked) ?? 0) > 0) {
    return { edition, note: `${title} ${version} is newer than the versions bosun's contract was checked against (${checked.join(", ")}): bosun wrote its newest contract (for ${editionSpan(cli, newest)})` };
  }
  return { edition, note: null };
}
