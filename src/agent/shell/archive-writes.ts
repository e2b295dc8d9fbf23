import { hasOption, lastOptionValue, optionValues, parseOptions, type ParsedOption } from "./command-options.js";
import { derivedWord, type Word } from "./shell-words.js";

/**
 * What an archiver writes: the archive it creates or changes (`tar -cf X`, `tar cf X`,
 * `--file=X`, `zip X …`, `cpio -o -O X`), or the folder it unpacks into (`tar -x -C dir`, `unzip
 * -d dir`, `cpio -i -D dir`; `.` for the current folder). Listing and testing write nothing.
 */
export function archiveWrites(program: "tar" | "zip" | "unzip" | "cpio", args: readonly Word[]): Word[] {
  const here = (): Word => derivedWord(".", args[0] ?? { start: 0, expands: false });
  switch (program) {
    case "tar":
      return tarWrites(args, here);
    case "zip": {
      // -tt takes a date, like -t
      const parsed = parseOptions(
        args.map((word) => (word.value === "-tt" ? { ...word, value: "-t" } : word)),
        { short: "bntPZsO", long: ["--out", "--temp-path", "--suffixes", "--password", "--compression-method", "--split-size"] },
      );
      const [archive] = parsed.operands;
      return [...(archive ? [archive] : []), ...optionValues(parsed, "-O", "--out")];
    }
    case "unzip": {
      const parsed = parseOptions(args, { short: "dP" });
      if (hasOption(parsed, "-l", "-t", "-v", "-p", "-c", "-z", "-Z")) return [];
      return [lastOptionValue(parsed, "-d") ?? here()];
    }
    case "cpio": {
      const parsed = parseOptions(args, { short: "CDEFHIMOR", long: ["--file", "--directory", "--format", "--owner", "--io-size", "--pattern-file", "--message"] });
      if (hasOption(parsed, "-o", "--create")) return optionValues(parsed, "-O", "-F", "--file");
      if (hasOption(parsed, "-p", "--pass-through")) return parsed.operands.slice(0, 1);
      if (hasOption(parsed, "-i", "--extract") && !hasOption(parsed, "-t", "--list")) return [lastOptionValue(parsed, "-D", "--directory") ?? here()];
      return [];
    }
  }
}

/** tar's short options that take a value. */
const TAR_VALUES = "bCfFgHIKLNTVX";
const TAR_LONG_VALUES = ["--file", "--directory", "--listed-incremental", "--exclude", "--exclude-from", "--files-from", "--transform", "--use-compress-program", "--format", "--label", "--newer", "--blocking-factor"];
const TAR_WRITE_MODES = ["-c", "--create", "-r", "--append", "-u", "--update", "-A", "--catenate", "--concatenate", "--delete"];

function tarWrites(args: readonly Word[], here: () => Word): Word[] {
  const rest = [...args];
  const options: ParsedOption[] = [];
  // the traditional form, `tar czf out.tgz dir`: the first word is a bundle of option letters,
  // and those that take a value take the next words, in order
  if (rest[0] && !rest[0].expands && /^[A-Za-z]+$/.test(rest[0].value)) {
    const bundle = rest.shift()!;
    for (const letter of bundle.value) {
      const value = TAR_VALUES.includes(letter) ? rest.shift() : undefined;
      options.push(value ? { name: `-${letter}`, value } : { name: `-${letter}` });
    }
  }
  const parsed = parseOptions(rest, { short: TAR_VALUES, long: TAR_LONG_VALUES });
  const all = { ...parsed, options: [...options, ...parsed.options] };
  const snapshots = optionValues(all, "-g", "--listed-incremental");
  if (hasOption(all, ...TAR_WRITE_MODES)) {
    const archive = lastOptionValue(all, "-f", "--file");
    return [...(archive ? [archive] : []), ...snapshots];
  }
  if (hasOption(all, "-x", "--extract", "--get") && !hasOption(all, "-O", "--to-stdout")) {
    return [lastOptionValue(all, "-C", "--directory") ?? here(), ...snapshots];
  }
  return [];
}
