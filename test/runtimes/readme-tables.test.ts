// The README's runtimes table and config contract registry are the code's: every row the
// registry produces is in the README exactly, and the README has no row the code does not.
import { describe, expect, it } from "vitest";
import { README, tableAfter } from "../fixtures/readme-table.js";
import { contractTableRows, hookEventTable, runtimeTableRows } from "../fixtures/install-tables.js";

describe("README tables", () => {
  it("the runtimes table matches the install registry", () => {
    expect(tableAfter("### Runtimes")).toEqual(runtimeTableRows());
  });

  it("the config contract registry matches every runtime's rows", () => {
    expect(tableAfter("#### The runtime config contract registry")).toEqual(contractTableRows());
  });

  it("the hook events table matches every runtime's event names", () => {
    const start = README.indexOf("#### Hook events");
    expect(start, "#### Hook events").toBeGreaterThan(-1);
    const lines = README.slice(start).split("\n");
    const first = lines.findIndex((line) => line.startsWith("| event |"));
    const table: string[] = [];
    for (const line of lines.slice(first)) {
      if (!line.startsWith("|")) break;
      table.push(line);
    }
    expect(table).toEqual(hookEventTable());
  });
});
