// The README's frontmatter key table is the code's (src/install/pack/frontmatter-keys.ts): every
// key of the table, in order, with the runtimes it passes to, and no row the code does not have.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FRONTMATTER_KEYS } from "../../src/install/pack/frontmatter-keys.js";

const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

function tableAfter(heading: string): string[] {
  const start = README.indexOf(heading);
  expect(start, heading).toBeGreaterThan(-1);
  const lines = README.slice(start).split("\n");
  const first = lines.findIndex((line) => line.startsWith("| ---"));
  const rows: string[] = [];
  for (const line of lines.slice(first + 1)) {
    if (!line.startsWith("|")) break;
    rows.push(line);
  }
  return rows;
}

describe("README frontmatter table", () => {
  it("matches the key table", () => {
    const rows = Object.entries(FRONTMATTER_KEYS).flatMap(([kind, keys]) => keys.map((rule) => `| ${kind} | \`${rule.key}\` | ${rule.runtimes === "all" ? "every runtime" : rule.runtimes.join(", ")} | ${rule.about} |`));
    expect(tableAfter("#### Frontmatter keys")).toEqual(rows);
  });
});
