import { describe, expect, it } from "vitest";
import { assembleInstructions, cutToBytes, instructionLimits, type InstructionSource } from "../../src/agent/instructions.js";

const source = (file: string, text: string, overrides: Partial<InstructionSource> = {}): InstructionSource => ({
  file,
  scope: "project",
  text,
  bytes: Buffer.byteLength(text),
  complete: true,
  ...overrides,
});

const lines = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix} line ${String(i).padStart(3, "0")}\n`).join("");

describe("assembling project instructions", () => {
  it("keeps the files in order, the user's first and the nearest last, each in its own element", () => {
    const { prompt, files } = assembleInstructions(
      [source("/u/AGENTS.md", "Answer in English.\n", { scope: "user" }), source("/repo/AGENTS.md", "Use pnpm.\n"), source("/repo/pkg/CLAUDE.md", "Run the pkg tests.\n")],
      { fileBytes: 1000, totalBytes: 5000 },
    );
    expect(prompt).toBe(
      [
        "Instructions the user keeps in AGENTS.md files (CLAUDE.md where a folder has no AGENTS.md): their own file for every project first, then the project's, from its root down to the working folder. Follow them; where two disagree, the later one (nearer the working folder) wins.",
        '<instructions file="/u/AGENTS.md">\nAnswer in English.\n</instructions>',
        '<instructions file="/repo/AGENTS.md">\nUse pnpm.\n</instructions>',
        '<instructions file="/repo/pkg/CLAUDE.md">\nRun the pkg tests.\n</instructions>',
      ].join("\n\n"),
    );
    expect(files).toEqual([
      { file: "/u/AGENTS.md", scope: "user", bytes: 19, keptBytes: 19, truncated: false },
      { file: "/repo/AGENTS.md", scope: "project", bytes: 10, keptBytes: 10, truncated: false },
      { file: "/repo/pkg/CLAUDE.md", scope: "project", bytes: 19, keptBytes: 19, truncated: false },
    ]);
  });

  it("says nothing of a user file when there is none, and has no section when every file is empty", () => {
    expect(assembleInstructions([source("/repo/AGENTS.md", "x\n")], { fileBytes: 100, totalBytes: 100 }).prompt).toMatch(/^Instructions the user keeps in AGENTS\.md files \(CLAUDE\.md where a folder has no AGENTS\.md\): the project's, from/);
    const empty = assembleInstructions([source("/repo/AGENTS.md", ""), source("/repo/a/AGENTS.md", "  \n\n")], { fileBytes: 100, totalBytes: 100 });
    expect(empty.prompt).toBe("");
    expect(empty.files.map((f) => [f.file, f.keptBytes, f.truncated])).toEqual([
      ["/repo/AGENTS.md", 0, false],
      ["/repo/a/AGENTS.md", 4, false],
    ]);
  });

  it("cuts a file over the per-file cap at a line break and says so in the prompt", () => {
    const text = lines("root", 50); // 50 lines of 14 bytes
    const { prompt, files } = assembleInstructions([source("/repo/AGENTS.md", text)], { fileBytes: 100, totalBytes: 1000 });
    expect(files).toEqual([{ file: "/repo/AGENTS.md", scope: "project", bytes: 700, keptBytes: 98, truncated: true }]);
    expect(prompt).toContain(`<instructions file="/repo/AGENTS.md">\n${lines("root", 7).trimEnd()}\n[bosun cut this file here: 98 of its 700 bytes are shown (instructions are limited to 100 bytes a file and 1,000 in all). Read /repo/AGENTS.md for the rest when it matters.]\n</instructions>`);
  });

  it("hands the total out nearest first: the root file is cut or left out before the working folder's", () => {
    const sources = [source("/u/AGENTS.md", lines("user", 5), { scope: "user" }), source("/repo/AGENTS.md", lines("root", 10)), source("/repo/pkg/AGENTS.md", lines("pkg", 5))];
    // 5 × 13 (pkg) = 65 bytes; of the root's 10 × 14 two lines fit in the 35 left; not one line of the user's in the 7 left.
    const { prompt, files } = assembleInstructions(sources, { fileBytes: 1000, totalBytes: 100 });
    expect(files.map((f) => [f.file, f.keptBytes, f.truncated])).toEqual([
      ["/u/AGENTS.md", 0, true],
      ["/repo/AGENTS.md", 28, true],
      ["/repo/pkg/AGENTS.md", 65, false],
    ]);
    expect(prompt).toContain('<instructions file="/u/AGENTS.md">\n[bosun left this file (70 bytes) out: instructions are limited to 1,000 bytes a file and 100 in all. Read /u/AGENTS.md for the rest when it matters.]\n</instructions>');
    expect(prompt).toContain(`${lines("root", 2)}[bosun cut this file here: 28 of its 140 bytes are shown`);
    expect(prompt.indexOf("/u/AGENTS.md")).toBeLessThan(prompt.indexOf("/repo/AGENTS.md"));
    expect(prompt.indexOf("/repo/AGENTS.md")).toBeLessThan(prompt.indexOf("/repo/pkg/AGENTS.md"));
  });

  it("marks a file that was only read in part as cut even when what was read fits", () => {
    const { files, prompt } = assembleInstructions([source("/repo/AGENTS.md", "first\nsecond, cut sh", { bytes: 90_000, complete: false })], { fileBytes: 1000, totalBytes: 1000 });
    expect(files[0]).toMatchObject({ bytes: 90_000, keptBytes: 6, truncated: true });
    expect(prompt).toContain("first\n[bosun cut this file here: 6 of its 90,000 bytes are shown");
  });
});

describe("cutting text to a byte budget", () => {
  it("ends at a line break, never inside a line or a UTF-8 sequence", () => {
    expect(cutToBytes("ab\ncd\nef", 7)).toBe("ab\ncd\n");
    expect(cutToBytes("ab\ncd\nef", 100)).toBe("ab\ncd\nef");
    expect(cutToBytes("é\néé\nééé", 6)).toBe("é\n");
    expect(cutToBytes("x".repeat(10), 4)).toBe("");
    expect(cutToBytes("anything", 0)).toBe("");
    expect(cutToBytes("whole\npart", 100, false)).toBe("whole\n");
  });
});

describe("instruction limits", () => {
  it("are 32 KiB a file and 64 KiB in all, less for a model with a small context window", () => {
    expect(instructionLimits(200_000)).toEqual({ fileBytes: 32_768, totalBytes: 65_536 });
    expect(instructionLimits(32_768)).toEqual({ fileBytes: 32_768, totalBytes: 32_768 });
    expect(instructionLimits(8_192)).toEqual({ fileBytes: 8_192, totalBytes: 8_192 });
  });
});
