// The README's frontmatter key table is the code's (src/install/pack/frontmatter-keys.ts): every
// key of the table, in order, with the runtimes it passes to, and no row the code does not have.
import { describe, expect, it } from "vitest";
import { tableAfter } from "../fixtures/readme-table.js";
import { FRONTMATTER_KEYS } from "../../src/install/pack/frontmatter-keys.js";

describe("README frontmatter table", () => {
  it("matches the key table", () => {
    const rows = Object.entries(FRONTMATTER_KEYS).flatMap(([kind, keys]) => keys.map((rule) => `| ${kind} | \`${rule.key}\` | ${rule.runtimes === "all" ? "every runtime" : rule.runtimes.join(", ")} | ${rule.about} |`));
    expect(tableAfter("#### Frontmatter keys")).toEqual(rows);
  });
});
