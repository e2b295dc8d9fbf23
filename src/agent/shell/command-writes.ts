import { basename, isAbsolute, join } from "node:path";
import { archiveWrites } from "./archive-writes.js";
import { hasOption, lastOptionValue, optionValues, parseOptions, type OptionSpec } from "./command-options.js";
import { gitWrites } from "./git-command.js";
import { derivedWord, type Word } from "./shell-words.js";

/**
 * What a known file-writing program writes, as the words that name it: output files, the folders
 * it creates or unpacks into, the files it moves away, deletes or edits in place. A relative word
 * is relative to the folder the program runs in; `.` stands for that folder itself (a program
 * that writes files into it under names bosun does not know). Programs without a rule write
 * nothing bosun knows of; interpreters (`python3 -c`, `node -e`) are not read.
 */
export function commandWrites(program: string, args: readonly Word[]): Word[] {
  const rule = RULES[program];
  // `-` is the standard input or output, not a file
  return rule ? rule(args).filter((word) => word.value !== "-") : [];
}

type Rule = (args: readonly Word[]) => Word[];

const COPY: OptionSpec = { short: "tS", long: ["--target-directory", "--suffix"] };

const RULES: Record<string, Rule> = {
  cp: (args) => {
    const parsed = parseOptions(args, COPY);
    const dir = lastOptionValue(parsed, "-t", "--target-directory");
    if (dir) return [dir];
    return parsed.operands.length >= 2 ? [parsed.operands[parsed.operands.length - 1]!] : [];
  },
  // mv takes its sources away from where they are: they are written too
  mv: (args) => {
    const parsed = parseOptions(args, COPY);
    const dir = lastOptionValue(parsed, "-t", "--target-directory");
    if (dir) return [...parsed.operands, dir];
    return parsed.operands.length >= 2 ? parsed.operands : [];
  },
  install: (args) => {
    const parsed = parseOptions(args, { short: "mogSt", long: ["--mode", "--owner", "--group", "--suffix", "--target-directory", "--strip-program"] });
    if (hasOption(parsed, "-d", "--directory")) return parsed.operands;
    const dir = lastOptionValue(parsed, "-t", "--target-directory");
    if (dir) return [dir];
    return parsed.operands.length >= 2 ? [parsed.operands[parsed.operands.length - 1]!] : [];
  },
  ln: (args) => {
    const parsed = parseOptions(args, COPY);
    const dir = lastOptionValue(parsed, "-t", "--target-directory");
    if (dir) return [dir];
    const [only] = parsed.operands;
    // `ln -s target`: the link is made in the current folder, under the target's name
    if (parsed.operands.length === 1 && only) return [derivedWord(basename(only.value), only)];
    return parsed.operands.length >= 2 ? [parsed.operands[parsed.operands.length - 1]!] : [];
  },
  rsync: (args) => {
    const parsed = parseOptions(args, { short: "eTfMB", long: RSYNC_VALUES });
    const local = parsed.operands.filter((word) => !isRemote(word.value));
    const written = [...optionValues(parsed, "--log-file", "--backup-dir")];
    const last = parsed.operands[parsed.operands.length - 1];
    if (parsed.operands.length >= 2 && last && !isRemote(last.value)) written.push(last);
    if (hasOption(parsed, "--remove-source-files")) written.push(...local.slice(0, -1));
    return written;
  },
  scp: (args) => {
    const parsed = parseOptions(args, { short: "cFiJloPSX" });
    const last = parsed.operands[parsed.operands.length - 1];
    return parsed.operands.length >= 2 && last && !isRemote(last.value) ? [last] : [];
  },
  tee: (args) => parseOptions(args).operands,
  touch: (args) => parseOptions(args, { short: "dtr", long: ["--date", "--reference"] }).operands,
  mkdir: (args) => parseOptions(args, { short: "m", long: ["--mode"] }).operands,
  mkfifo: (args) => parseOptions(args, { short: "m", long: ["--mode"] }).operands,
  mknod: (args) => parseOptions(args, { short: "m", long: ["--mode"] }).operands.slice(0, 1),
  rmdir: (args) => parseOptions(args).operands,
  unlink: (args) => parseOptions(args).operands,
  shred: (args) => parseOptions(args, { short: "ns", long: ["--iterations", "--size", "--random-source"] }).operands,
  truncate: (args) => parseOptions(args, { short: "sr", long: ["--size", "--reference"] }).operands,
  chmod: (args) => {
    // a mode may look like an option (-x, -rw): only -R, -c, -f, -v and long options are options
    const operands = args.filter((word) => !/^-[Rcfv]+$/.test(word.value) && !word.value.startsWith("--"));
    return args.some((word) => word.value.startsWith("--reference")) ? operands : operands.slice(1);
  },
  chown: (args) => ownerChange(args),
  chgrp: (args) => ownerChange(args),
  sed: (args) => {
    const parsed = parseOptions(args, { short: "efl", attached: "i", long: ["--expression", "--file", "--line-length"] });
    if (!hasOption(parsed, "-i", "--in-place")) return [];
    return hasOption(parsed, "-e", "-f", "--expression", "--file") ? parsed.operands : parsed.operands.slice(1);
  },
  perl: (args) => {
    const parsed = parseOptions(args, { short: "eE", attached: "iIMmx" });
    if (!hasOption(parsed, "-i")) return [];
    return hasOption(parsed, "-e", "-E") ? parsed.operands : parsed.operands.slice(1);
  },
  curl: (args) => curlWrites(args),
  wget: (args) => wgetWrites(args),
  dd: (args) => args.filter((word) => word.value.startsWith("of=")).map((word) => derivedWord(word.value.slice(3), word)),
  split: (args) => {
    const parsed = parseOptions(args, { short: "abClnt", long: ["--suffix-length", "--bytes", "--line-bytes", "--lines", "--number", "--separator", "--additional-suffix", "--filter"] });
    const [input, prefix] = parsed.operands;
    return [prefix ?? derivedWord("x", input ?? args[0] ?? { start: 0, expands: false })];
  },
  csplit: (args) => {
    const parsed = parseOptions(args, { short: "bfn", long: ["--suffix-format", "--prefix", "--digits"] });
    return [lastOptionValue(parsed, "-f", "--prefix") ?? derivedWord("xx", args[0] ?? { start: 0, expands: false })];
  },
  patch: (args) => {
    const parsed = parseOptions(args, { short: "oBdDFgiprVYz", long: PATCH_VALUES });
    if (hasOption(parsed, "--dry-run")) return [];
    const written = optionValues(parsed, "-o", "--output", "-r", "--reject-file");
    if (hasOption(parsed, "-o", "--output")) return written;
    const [file] = parsed.operands;
    // without a file, it edits the files the patch names, in its folder
    return [...written, file ?? lastOptionValue(parsed, "-d", "--directory") ?? derivedWord(".", args[0] ?? { start: 0, expands: false })];
  },
  sort: (args) => optionValues(parseOptions(args, { short: "kotST", long: ["--key", "--output", "--field-separator", "--buffer-size", "--temporary-directory", "--files0-from"] }), "-o", "--output"),
  uniq: (args) => parseOptions(args, { short: "fsw", long: ["--skip-fields", "--skip-chars", "--check-chars"] }).operands.slice(1, 2),
  find: (args) => args.flatMap((word, i) => (["-fprint", "-fprint0", "-fls", "-fprintf"].includes(word.value) && args[i + 1] ? [args[i + 1]!] : [])),
  git: (args) => gitWrites(args),
  tar: (args) => archiveWrites("tar", args),
  zip: (args) => archiveWrites("zip", args),
  unzip: (args) => archiveWrites("unzip", args),
  cpio: (args) => archiveWrites("cpio", args),
};

for (const name of ["gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "lzma", "unlzma", "zstd", "unzstd"]) {
  // these replace each file with its (de)compressed copy, unless writing to stdout
  RULES[name] = (args) => {
    const parsed = parseOptions(args, { short: "So", long: ["--suffix", "--output"] });
    if (hasOption(parsed, "-c", "--stdout", "-t", "--test", "-l", "--list")) return [];
    const output = optionValues(parsed, "-o", "--output");
    return output.length > 0 ? output : parsed.operands;
  };
}

const RSYNC_VALUES = [
  "--rsh",
  "--exclude",
  "--include",
  "--exclude-from",
  "--include-from",
  "--files-from",
  "--filter",
  "--log-file",
  "--backup-dir",
  "--temp-dir",
  "--partial-dir",
  "--chmod",
  "--chown",
  "--rsync-path",
  "--compare-dest",
  "--copy-dest",
  "--link-dest",
  "--suffix",
  "--timeout",
  "--port",
  "--password-file",
  "--out-format",
  "--max-size",
  "--min-size",
  "--bwlimit",
];

const PATCH_VALUES = ["--output", "--directory", "--input", "--reject-file", "--strip", "--prefix", "--ifdef", "--fuzz", "--get", "--version-control", "--basename-prefix", "--suffix"];

/** `host:path`, `user@host:path`, `rsync://…`: on another machine. */
function isRemote(value: string): boolean {
  return /^[^/]*:/.test(value);
}

function ownerChange(args: readonly Word[]): Word[] {
  const parsed = parseOptions(args);
  return hasOption(parsed, "--reference") ? parsed.operands : parsed.operands.slice(1);
}

const CURL_VALUES = [
  "--output",
  "--dump-header",
  "--cookie-jar",
  "--trace",
  "--trace-ascii",
  "--stderr",
  "--etag-save",
  "--output-dir",
  "--libcurl",
  "--data",
  "--data-raw",
  "--data-binary",
  "--data-urlencode",
  "--header",
  "--user",
  "--request",
  "--user-agent",
  "--referer",
  "--cookie",
  "--form",
  "--config",
  "--max-time",
  "--connect-timeout",
  "--retry",
  "--proxy",
  "--cacert",
  "--cert",
  "--key",
  "--url",
  "--upload-file",
  "--write-out",
  "--range",
  "--continue-at",
  "--resolve",
];

function curlWrites(args: readonly Word[]): Word[] {
  const parsed = parseOptions(args, { short: "AbcCdDeEFHKmoPQrtTuUwxXyYz", long: CURL_VALUES });
  const dir = lastOptionValue(parsed, "--output-dir");
  const inDir = (word: Word): Word => (dir && !isAbsolute(word.value) ? derivedWord(join(dir.value, word.value), { start: word.start, expands: word.expands || dir.expands }) : word);
  const written = [...optionValues(parsed, "-o", "--output").map(inDir), ...optionValues(parsed, "-D", "--dump-header", "-c", "--cookie-jar", "--trace", "--trace-ascii", "--stderr", "--etag-save", "--libcurl")];
  if (hasOption(parsed, "-O", "--remote-name", "--remote-name-all", "-J", "--remote-header-name")) {
    // the file is named after the URL (or by the server, with -J), in the output folder
    const urls = [...parsed.operands, ...optionValues(parsed, "--url")];
    const named = hasOption(parsed, "-J", "--remote-header-name") ? [] : urls.map((url) => urlFileName(url)).filter((name): name is Word => name !== null);
    written.push(...(named.length > 0 ? named.map(inDir) : [dir ?? derivedWord(".", args[0]!)]));
  }
  return written;
}

const WGET_VALUES = [
  "--output-document",
  "--output-file",
  "--append-output",
  "--directory-prefix",
  "--execute",
  "--input-file",
  "--tries",
  "--timeout",
  "--wait",
  "--quota",
  "--user-agent",
  "--base",
  "--level",
  "--accept",
  "--reject",
  "--domains",
  "--header",
  "--user",
  "--password",
  "--post-data",
  "--post-file",
  "--load-cookies",
  "--save-cookies",
];

function wgetWrites(args: readonly Word[]): Word[] {
  const parsed = parseOptions(args, { short: "OoaPeitTwQUBlARDIX", long: WGET_VALUES });
  const written = optionValues(parsed, "-o", "--output-file", "-a", "--append-output", "--save-cookies");
  const document = optionValues(parsed, "-O", "--output-document");
  if (document.length > 0) return [...written, ...document];
  const prefix = lastOptionValue(parsed, "-P", "--directory-prefix");
  // a recursive download, or one whose URLs are in a file: files under names bosun does not know
  if (hasOption(parsed, "-r", "--recursive", "-m", "--mirror", "-i", "--input-file")) return [...written, prefix ?? derivedWord(".", args[0]!)];
  for (const url of parsed.operands) {
    const name = urlFileName(url) ?? derivedWord("index.html", url);
    written.push(prefix && !isAbsolute(name.value) ? derivedWord(join(prefix.value, name.value), { start: url.start, expands: url.expands || prefix.expands }) : name);
  }
  return written;
}

/** The file name a download of this URL is saved under (its path's last part), or null when it has none. */
function urlFileName(url: Word): Word | null {
  const path = url.value.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "").replace(/[?#].*$/, "");
  const name = path.split("/").pop() ?? "";
  return name === "" || name === "." || name === ".." ? null : derivedWord(name, url);
}
