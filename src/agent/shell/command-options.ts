import { derivedWord, type Word } from "./shell-words.js";

/**
 * Reads a command's arguments the way getopt does, given which of its options take a value:
 * `-o file`, `-ofile`, `-abo file` (a cluster whose last option takes the next word), `--output
 * file`, `--output=file`, and `--` ending the options. Options may follow operands (GNU style)
 * unless `stopAtOperand` is set, as for a command that runs another one.
 */

/** Which options of a command take a value. */
export interface OptionSpec {
  /** Short options that take a value, attached (`-ofile`) or as the next word (`-o file`). */
  short?: string;
  /** Short options whose value can only be attached (`sed -i.bak`); alone they take none. */
  attached?: string;
  /** Long options that take a value as the next word when not given with `=`. */
  long?: readonly string[];
  /** Stop at the first operand: what follows it belongs to the command it names. */
  stopAtOperand?: boolean;
}

/** One option as given: `-o`, `--output`, with its value when it has one. */
export interface ParsedOption {
  name: string;
  value?: Word;
}

/** A command's arguments, sorted into options and operands. */
export interface ParsedArgs {
  options: ParsedOption[];
  operands: Word[];
  /** With `stopAtOperand`: the first operand and everything after it. */
  rest: Word[];
}

/** Sorts a command's arguments (its words after the name) into options and operands. */
export function parseOptions(words: readonly Word[], spec: OptionSpec = {}): ParsedArgs {
  const parsed: ParsedArgs = { options: [], operands: [], rest: [] };
  let ended = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const value = word.value;
    if (ended || value === "-" || !value.startsWith("-")) {
      if (spec.stopAtOperand) {
        parsed.rest = words.slice(i);
        break;
      }
      parsed.operands.push(word);
    } else if (value === "--") {
      ended = true;
      if (spec.stopAtOperand) {
        parsed.rest = words.slice(i + 1);
        break;
      }
    } else if (value.startsWith("--")) {
      const equals = value.indexOf("=");
      if (equals !== -1) parsed.options.push({ name: value.slice(0, equals), value: derivedWord(value.slice(equals + 1), word) });
      else if (spec.long?.includes(value) && i + 1 < words.length) parsed.options.push({ name: value, value: words[++i]! });
      else parsed.options.push({ name: value });
    } else {
      for (let j = 1; j < value.length; j++) {
        const name = `-${value[j]}`;
        const attached = value.slice(j + 1);
        if (spec.short?.includes(value[j]!)) {
          const given = attached !== "" ? derivedWord(attached, word) : words[++i];
          parsed.options.push(given ? { name, value: given } : { name });
          break;
        }
        if (spec.attached?.includes(value[j]!)) {
          parsed.options.push(attached !== "" ? { name, value: derivedWord(attached, word) } : { name });
          break;
        }
        parsed.options.push({ name });
      }
    }
  }
  return parsed;
}

/** Whether any of these options was given (`-o`, `--output`). */
export function hasOption(parsed: ParsedArgs, ...names: string[]): boolean {
  return parsed.options.some((option) => names.includes(option.name));
}

/** The values given to these options, in order. */
export function optionValues(parsed: ParsedArgs, ...names: string[]): Word[] {
  return parsed.options.filter((option) => option.value !== undefined && names.includes(option.name)).map((option) => option.value!);
}

/** The value given last to these options (the one that counts), or undefined. */
export function lastOptionValue(parsed: ParsedArgs, ...names: string[]): Word | undefined {
  return optionValues(parsed, ...names).pop();
}
