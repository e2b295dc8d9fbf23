import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatTokens } from "../../src/llm/token-count.js";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The README's fenced code blocks, each as its lines. */
function codeBlocks(text: string): string[][] {
  return [...text.matchAll(/^```[^\n]*\n([\s\S]*?)^```$/gm)].map((match) => match[1]!.trimEnd().split("\n"));
}

/** A token count as the README writes it (`1.75K`, `545`, `1,750`), as a number. */
function tokens(shown: string): number {
  const scale = shown.endsWith("K") ? 1_000 : shown.endsWith("M") ? 1_000_000 : 1;
  return Math.round(Number.parseFloat(shown.replace(/[KM,]$/, "").replaceAll(",", "")) * scale);
}

describe("the README's transcripts of runs", () => {
  it("show token counts as bosun writes them", () => {
    const figures = [...readme.matchAll(/([\d.,]+[KM]?) (?:tokens )?in \/ ([\d.,]+[KM]?) out/g)].flatMap((match) => [match[1]!, match[2]!]);
    expect(figures.length).toBeGreaterThan(10);
    for (const figure of figures) expect(figure, figure).toBe(formatTokens(tokens(figure)));
  });

  it("end a finished bosun run with its closing line, or with the error that ended it", () => {
    const section = readme.slice(readme.indexOf("### `bosun run"), readme.indexOf("### `bosun sessions"));
    const closing = /^bosun: \d+ turns? · \d+ tool calls?( · \d+ sub-agents?)? · [\d.]+[KM]? tokens in \/ [\d.]+[KM]? out( · \$[\d.]+)? · [\d.]+ s$/;
    const failed = /^bosun: .*\(session \S+ is saved\)$/;
    let runs = 0;
    for (const lines of codeBlocks(section)) {
      const starts = lines.flatMap((line, i) => (line.startsWith("$ ") ? [i] : []));
      starts.forEach((start, n) => {
        // With no prompt, bosun run is an interactive session: it ends when you leave it.
        if (!/^\$ bosun run \S/.test(lines[start]!)) return;
        runs++;
        const output = lines.slice(start + 1, starts[n + 1] ?? lines.length).filter((line) => line.trim() !== "");
        const last = output.at(-1) ?? "";
        expect(closing.test(last) || failed.test(last), `${lines[start]}\n… ${last}`).toBe(true);
      });
    }
    expect(runs).toBeGreaterThanOrEqual(3);
  });
});
