// Frontmatter without the YAML library: for every input it answers, the answer is the one the
// `yaml` package gives (read and written), checked on generated input; anything it is not sure
// of goes to the package.
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { parseFrontmatter, renderFrontmatter } from "../../src/install/pack/frontmatter.js";
import { parsePlainMapping, renderPlainMapping } from "../../src/install/pack/plain-yaml.js";
import { pick, seededRandom } from "../fixtures/random.js";

// Characters a generated value is made of: letters and digits, every ASCII punctuation mark,
// spaces, and a few characters beyond ASCII (some YAML treats specially).
const PIECES = [..."abcXYZ019 ", ..."!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", "  ", ": ", " #", "é", "\u00a0", "→", "\u2028", "\ufeff", "\t", "😀"];
const WORDS = ["true", "null", "False", "yes", "no", "on", "~", "0x1f", "1e3", "12", ".5", "-", "- a", "? x", "! t", "&a", "*a", "|", ">", "%x", "@x", "`x"];

function value(random: () => number): string {
  if (pick(random, 6) === 0) return WORDS[pick(random, WORDS.length)] as string;
  // Mostly words with now and then any other piece, so both paths are taken often.
  let out = pick(random, 8) === 0 ? "" : "Abc"[pick(random, 3)] as string;
  const length = 1 + pick(random, 12);
  for (let i = 0; i < length; i++) out += pick(random, 12) === 0 ? PIECES[pick(random, PIECES.length)] : "ab yZ0-."[pick(random, 8)];
  return out;
}

/** Now and then a colon inside a value, with or without a space after it. */
function colons(random: () => number, text: string): string {
  if (pick(random, 4) !== 0 || text.length < 2) return text;
  const at = 1 + pick(random, text.length - 1);
  return `${text.slice(0, at)}${pick(random, 3) === 0 ? ": " : ":"}${text.slice(at)}`;
}

function quoted(random: () => number, text: string): string {
  switch (pick(random, 4)) {
    case 0:
      return `"${text}"`;
    case 1:
      return `'${text}'`;
    default:
      return text;
  }
}

describe("plain frontmatter", () => {
  it("reads generated key: value lines exactly as the yaml package does, or leaves them to it", () => {
    const random = seededRandom(20261129);
    let answered = 0;
    for (let run = 0; run < 4000; run++) {
      const keys = ["name", "description", "argument-hint", "model", "tools", "x_1", "true", "Name"];
      const lines: string[] = [];
      const count = 1 + pick(random, 4);
      for (let i = 0; i < count; i++) lines.push(`${keys[pick(random, keys.length)]}:${pick(random, 5) === 0 ? "  " : " "}${quoted(random, value(random))}`);
      const eol = pick(random, 3) === 0 ? "\r\n" : "\n";
      const text = lines.join(eol) + eol;
      const ours = parsePlainMapping(text);
      if (ours === null) continue;
      answered++;
      expect(ours, JSON.stringify(text)).toEqual(parse(text, { uniqueKeys: true }));
    }
    // The generator must reach the fast path often, or this test proves little.
    expect(answered).toBeGreaterThan(800);
  });

  it("reads generated lists (`key:` then `- value` lines) exactly as the yaml package does, or leaves them to it", () => {
    const random = seededRandom(20261202);
    const tally = { answered: 0, lists: 0 };
    for (let run = 0; run < 4000; run++) {
      const keys = ["name", "allowed-tools", "tools", "x_1", "true", "Name"];
      const lines: string[] = [];
      const count = 1 + pick(random, 4);
      for (let i = 0; i < count; i++) {
        const key = keys[pick(random, keys.length)];
        if (pick(random, 2) === 0) {
          lines.push(`${key}:${pick(random, 5) === 0 ? " " : ""}`);
          const indent = " ".repeat(pick(random, 4));
          const items = pick(random, 5);
          for (let j = 0; j < items; j++) {
            if (pick(random, 8) === 0) lines.push("");
            const odd = pick(random, 12) === 0 ? " ".repeat(pick(random, 4)) : indent;
            lines.push(`${odd}-${pick(random, 12) === 0 ? "" : " "}${pick(random, 5) === 0 ? " " : ""}${quoted(random, pick(random, 2) === 0 ? "Read" : value(random))}`);
          }
          if (pick(random, 10) === 0) lines.push(`${indent}  continued`);
        } else lines.push(`${key}: ${quoted(random, value(random))}`);
      }
      compareWithYaml(joinLines(random, lines), tally);
    }
    // Both paths must be taken often, or this test proves little.
    expect(tally.answered).toBeGreaterThan(500);
    expect(tally.lists).toBeGreaterThan(150);
  });

  it("reads generated comment lines, colons inside words and escaped quotes, with lists, exactly as the yaml package does, or leaves them to it", () => {
    const random = seededRandom(20261202);
    const tally = { answered: 0, lists: 0 };
    for (let run = 0; run < 4000; run++) {
      const keys = ["name", "description", "allowed-tools", "tools", "x_1", "null", "Name"];
      const lines: string[] = [];
      const count = 1 + pick(random, 4);
      for (let i = 0; i < count; i++) {
        const key = keys[pick(random, keys.length)] as string;
        if (pick(random, 6) === 0) lines.push(pick(random, 2) === 0 ? `# ${value(random)}` : `  #${value(random)}`);
        if (pick(random, 2) === 0) {
          lines.push(`${key}: ${quoted(random, colons(random, value(random)))}`);
          continue;
        }
        // A key with its block list: the items at one indent (now and then one off it, or none at all).
        lines.push(pick(random, 10) === 0 ? `${key}: ` : `${key}:`);
        const indent = " ".repeat(pick(random, 4));
        const items = pick(random, 8) === 0 ? 0 : 1 + pick(random, 4);
        for (let k = 0; k < items; k++) {
          const shift = pick(random, 12) === 0 ? " " : "";
          if (pick(random, 10) === 0) lines.push(pick(random, 2) === 0 ? "" : `${indent}# note`);
          lines.push(`${indent}${shift}-${pick(random, 12) === 0 ? "  " : " "}${quoted(random, colons(random, value(random)))}`);
        }
      }
      compareWithYaml(joinLines(random, lines), tally);
    }
    expect(tally.answered).toBeGreaterThan(400);
    expect(tally.lists).toBeGreaterThan(200);
  });

  it("reads escaped quotes and backslashes in double quotes, and nothing else escaped", () => {
    for (const text of ['hint: "--do \\"task\\" here"\n', 'hint: "a\\\\b"\n', 'hint: "a\\\\\\"b"\n']) {
      expect(parsePlainMapping(text), JSON.stringify(text)).toEqual(parse(text));
    }
    for (const text of ['hint: "a\\tb"\n', 'hint: "a\\nb"\n', 'hint: "a\\u0041"\n', 'hint: "a\\"\n']) {
      expect(parsePlainMapping(text), JSON.stringify(text)).toBeNull();
    }
  });

  it("writes exactly what the yaml package writes, or leaves it to it", () => {
    const random = seededRandom(7);
    let answered = 0;
    for (let run = 0; run < 4000; run++) {
      const data: Record<string, unknown> = { name: value(random), description: value(random) };
      if (pick(random, 3) === 0) data.tools = pick(random, 2) === 0 ? ["Read"] : value(random);
      if (pick(random, 3) === 0) data["allowed-tools"] = Array.from({ length: pick(random, 4) }, () => (pick(random, 2) === 0 ? "Grep" : value(random)));
      const ours = renderPlainMapping(data, "\n");
      if (ours === null) continue;
      answered++;
      expect(ours, JSON.stringify(data)).toBe(stringify(data, { lineWidth: 0 }));
      expect(parse(ours)).toEqual(data);
    }
    expect(answered).toBeGreaterThan(400);
  });

  it("leaves to the yaml package what only it can read", () => {
    for (const text of ["count: 3\n", "on: true\n", "name: null\n", "name: a: b\n", "name: x # note\n", "name:\n  nested: x\n", "tools:\n- Read\n", "tools:\n", "tools:\n  -\n", "tools:\n  - a: b\n", "tools:\n  - Read\n   - Write\n", "tools:\n  - Read\n  more\n", "tools:\n  - Read\n  - [x]\n", "name: 'it''s'\n", 'name: "a\\tb"\n', "name: x\nname: y\n", "  name: x\n", "# only a comment\n", "name: x \n"]) {
      expect(parsePlainMapping(text), JSON.stringify(text)).toBeNull();
    }
    expect(renderPlainMapping({ count: 3 }, "\n")).toBeNull();
    expect(renderPlainMapping({ name: "true" }, "\n")).toBeNull();
    expect(renderPlainMapping({ name: "a: b" }, "\n")).toBeNull();
    expect(renderPlainMapping({ tools: [] }, "\n")).toBeNull();
    expect(renderPlainMapping({ tools: ["Read", 3] }, "\n")).toBeNull();
    expect(renderPlainMapping({ tools: ["Read", "a: b"] }, "\n")).toBeNull();
  });

  it("gives the same frontmatter either way, with the body and its first line", () => {
    const text = "---\r\nname: demo\r\ndescription: 'Reviews: code'\r\n---\r\n\r\nBody text\r\n";
    expect(parseFrontmatter(text, "demo.md")).toEqual({ data: { name: "demo", description: "Reviews: code" }, body: "\r\nBody text\r\n", bodyLine: 5 });
    expect(parseFrontmatter("---\nname: demo\nallowed-tools:\n  - Read\n  - \"Bash(git *)\"\n---\nBody\n", "demo.md")).toEqual({ data: { name: "demo", "allowed-tools": ["Read", "Bash(git *)"] }, body: "Body\n", bodyLine: 7 });
    expect(parseFrontmatter("---\nname: demo\ncount: 3\n---\nBody\n", "demo.md")).toEqual({ data: { name: "demo", count: 3 }, body: "Body\n", bodyLine: 5 });
    expect(renderFrontmatter({ name: "demo", description: "Plain words", model: undefined }, "\r\n")).toBe("---\r\nname: demo\r\ndescription: Plain words\r\n---\r\n");
    expect(renderFrontmatter({ name: "demo", description: "a: b" })).toBe(`---\n${stringify({ name: "demo", description: "a: b" }, { lineWidth: 0 })}---\n`);
  });
});

/** Generated lines as one text, with LF or (now and then) CRLF line ends. */
function joinLines(random: () => number, lines: readonly string[]): string {
  const eol = pick(random, 3) === 0 ? "\r\n" : "\n";
  return lines.join(eol) + eol;
}

/** The plain reader's answer, where it gives one, equals the yaml package's; the tally counts how often it answered, and with a list. */
function compareWithYaml(text: string, tally: { answered: number; lists: number }): void {
  const ours = parsePlainMapping(text);
  if (ours === null) return;
  tally.answered++;
  if (Object.values(ours).some(Array.isArray)) tally.lists++;
  expect(ours, JSON.stringify(text)).toEqual(parse(text, { uniqueKeys: true }));
}
