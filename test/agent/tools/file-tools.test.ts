import { readFileSync, statSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEditTool } from "../../../src/agent/tools/edit.js";
import { createGlobTool } from "../../../src/agent/tools/glob.js";
import { createGrepTool } from "../../../src/agent/tools/grep.js";
import { createReadTool, MAX_LINE_CHARS } from "../../../src/agent/tools/read.js";
import { createWriteTool } from "../../../src/agent/tools/write.js";
import { makeToolBench } from "../../fixtures/tool-context.js";

const read = createReadTool();
const write = createWriteTool();
const edit = createEditTool();
const glob = createGlobTool();
const grep = createGrepTool();

describe("read", () => {
  it("numbers lines and pages with offset and limit", async () => {
    const t = makeToolBench();
    t.write("a.txt", Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
    expect((await t.run(read, { path: "a.txt" })).output).toBe(Array.from({ length: 10 }, (_, i) => `${String(i + 1).padStart(6)}\tline ${i + 1}`).join("\n"));
    const page = await t.run(read, { path: "a.txt", offset: 3, limit: 2 });
    expect(page.output).toBe("     3\tline 3\n     4\tline 4\n(showing lines 3-4 of 10; continue with offset=5)");
    expect(page.summary).toBe("lines 3-4 of 10");
  });

  it("cuts very long lines and reads files by absolute path", async () => {
    const t = makeToolBench();
    const file = t.write("min.js", "x".repeat(MAX_LINE_CHARS + 50));
    const result = await t.run(read, { path: file });
    expect(result.output).toContain(`… [line cut at ${MAX_LINE_CHARS} characters]`);
    expect(result.output.length).toBeLessThan(MAX_LINE_CHARS + 100);
  });

  it("explains each failure so the model can recover", async () => {
    const t = makeToolBench();
    t.write("config.json", "{}");
    t.write("bin.dat", Buffer.from([1, 2, 0, 3]));
    t.write("dir/x", "");
    await expect(t.run(read, { path: "confg.json" })).rejects.toThrow('confg.json does not exist; did you mean "config.json"?');
    // Two letters swapped twice are two edits, as in every suggestion bosun makes.
    await expect(t.run(read, { path: "ocnfgi.json" })).rejects.toThrow('ocnfgi.json does not exist; did you mean "config.json"?');
    await expect(t.run(read, { path: "dir" })).rejects.toThrow("dir is a directory; use glob to list its files");
    await expect(t.run(read, { path: "bin.dat" })).rejects.toThrow("bin.dat is a binary file (4 bytes); read shows text only");
    await expect(t.run(read, { path: "config.json", offset: 5 })).rejects.toThrow("config.json has 1 lines; offset 5 is past the end");
    expect((await t.run(read, { path: "dir/x" })).output).toBe("dir/x is empty");
    expect(read.inputSchema.safeParse({ path: "a", offset: 0 }).success).toBe(false);
    expect(read.inputSchema.safeParse({ path: "a", extra: 1 }).success).toBe(false);
  });
});

describe("write", () => {
  it("creates folders, reports created or replaced, and keeps a file's mode", async () => {
    const t = makeToolBench();
    expect((await t.run(write, { path: "src/new/a.ts", content: "one\ntwo\n" })).output).toBe("created src/new/a.ts: 2 lines, 8 bytes");
    const file = join(t.workdir, "src/new/a.ts");
    chmodSync(file, 0o755);
    expect((await t.run(write, { path: "src/new/a.ts", content: "three" })).output).toBe("replaced src/new/a.ts: 1 lines, 5 bytes");
    expect(readFileSync(file, "utf8")).toBe("three");
    expect(statSync(file).mode & 0o777).toBe(0o755);
  });

  it("refuses folders and oversized content; flags writes outside the workdir as dangerous", async () => {
    const t = makeToolBench();
    t.write("d/x", "");
    await expect(t.run(write, { path: "d", content: "x" })).rejects.toThrow("d exists and is not a regular file");
    await expect(t.run(write, { path: "big", content: "x".repeat(4 * 1024 * 1024 + 1) })).rejects.toThrow(/content is 4194305 bytes; write takes at most 4194304/);
    expect(write.danger!({ path: "src/a.ts", content: "" }, t.workdir)).toBeNull();
    expect(write.danger!({ path: "/etc/hosts", content: "" }, t.workdir)).toBe("writes outside the working directory (/etc/hosts)");
    expect(edit.danger!({ path: "/usr/local/lib/x.js", old_string: "a", new_string: "b" }, t.workdir)).toBe("writes outside the working directory (/usr/local/lib/x.js)");
    expect(write.danger!({ path: "/tmp/scratch.txt", content: "" }, t.workdir)).toBeNull();
  });
});

describe("edit", () => {
  it("replaces a unique match and shows the changed lines", async () => {
    const t = makeToolBench();
    t.write("a.py", "def f():\n    return 1\n\ndef g():\n    return 2\n");
    const result = await t.run(edit, { path: "a.py", old_string: "return 2", new_string: "return 3" });
    expect(result.output).toBe("replaced 1 occurrence in a.py (first at line 5):\n     3\t\n     4\tdef g():\n     5\t    return 3\n     6\t");
    expect(readFileSync(join(t.workdir, "a.py"), "utf8")).toBe("def f():\n    return 1\n\ndef g():\n    return 3\n");
  });

  it("refuses several matches unless replace_all, and says where they are", async () => {
    const t = makeToolBench();
    t.write("a.txt", "x = 1\ny = 2\nx = 1\n");
    await expect(t.run(edit, { path: "a.txt", old_string: "x = 1", new_string: "x = 9" })).rejects.toThrow(
      "old_string occurs 2 times in a.txt (lines 1, 3); include more surrounding text to pick one, or set replace_all to true",
    );
    expect(readFileSync(join(t.workdir, "a.txt"), "utf8")).toBe("x = 1\ny = 2\nx = 1\n");
    expect((await t.run(edit, { path: "a.txt", old_string: "x = 1", new_string: "x = 9", replace_all: true })).summary).toBe("2 replacements at line 1");
    expect(readFileSync(join(t.workdir, "a.txt"), "utf8")).toBe("x = 9\ny = 2\nx = 9\n");
  });

  it("matches across Windows line endings and keeps them", async () => {
    const t = makeToolBench();
    t.write("win.txt", "one\r\ntwo\r\nthree\r\n");
    await t.run(edit, { path: "win.txt", old_string: "one\ntwo", new_string: "1\n2" });
    expect(readFileSync(join(t.workdir, "win.txt"), "utf8")).toBe("1\r\n2\r\nthree\r\n");
  });

  it("explains a miss, pointing at a whitespace-only difference", async () => {
    const t = makeToolBench();
    t.write("a.ts", "function f() {\n\treturn 1;\n}\n");
    await expect(t.run(edit, { path: "a.ts", old_string: "  return 1;", new_string: "  return 2;" })).rejects.toThrow(
      "old_string was not found in a.ts; line 2 matches its first line except for whitespace: read the file again and copy the text exactly",
    );
    await expect(t.run(edit, { path: "a.ts", old_string: "nothing like it", new_string: "x" })).rejects.toThrow(/not found in a\.ts; read the file again/);
    await expect(t.run(edit, { path: "a.ts", old_string: "", new_string: "x" })).rejects.toThrow("old_string is empty; to create or overwrite a whole file use write");
    await expect(t.run(edit, { path: "a.ts", old_string: "f", new_string: "f" })).rejects.toThrow("old_string and new_string are the same");
    await expect(t.run(edit, { path: "missing.ts", old_string: "a", new_string: "b" })).rejects.toThrow("missing.ts does not exist; use write to create it");
  });
});

describe("glob", () => {
  it("matches paths with ** and skips .git and node_modules unless asked", async () => {
    const t = makeToolBench();
    for (const path of ["src/a.ts", "src/deep/b.ts", "src/c.js", ".git/x.ts", "node_modules/m/index.ts", ".hidden.ts"]) t.write(path, "");
    expect((await t.run(glob, { pattern: "**/*.ts" })).output).toBe(".hidden.ts\nsrc/a.ts\nsrc/deep/b.ts");
    expect((await t.run(glob, { pattern: "node_modules/**/*.ts" })).output).toBe("node_modules/m/index.ts");
    expect((await t.run(glob, { pattern: "*.ts", path: "src" })).output).toBe("(paths relative to src)\na.ts");
    expect((await t.run(glob, { pattern: "*.rs" })).output).toBe("no files match *.rs in .");
    await expect(t.run(glob, { pattern: "*", path: "src/a.ts" })).rejects.toThrow("src/a.ts is not a folder");
    await expect(t.run(glob, { pattern: "*", path: "nope" })).rejects.toThrow("nope does not exist");
  });
});

describe("grep", () => {
  it("prints path:line:text, with context, filters and files_only", async () => {
    const t = makeToolBench();
    t.write("src/a.ts", "const x = 1;\n// TODO: fix\nconst y = 2;\n");
    t.write("src/b.js", "todo later\n");
    t.write("bin.dat", Buffer.from("TODO\0binary"));
    expect((await t.run(grep, { pattern: "TODO" })).output).toBe("src/a.ts:2:// TODO: fix");
    expect((await t.run(grep, { pattern: "todo", ignore_case: true, files_only: true })).output).toBe("src/a.ts\nsrc/b.js");
    expect((await t.run(grep, { pattern: "todo", ignore_case: true, glob: "*.js" })).output).toBe("src/b.js:1:todo later");
    expect((await t.run(grep, { pattern: "TODO", context: 1 })).output).toBe("src/a.ts-1-const x = 1;\nsrc/a.ts:2:// TODO: fix\nsrc/a.ts-3-const y = 2;");
    expect((await t.run(grep, { pattern: "const", path: "src/a.ts" })).summary).toBe("2 matches");
    expect((await t.run(grep, { pattern: "absent" })).output).toBe('no matches for "absent" in .');
  });

  it("reports a bad pattern or path as an error the model can fix", async () => {
    const t = makeToolBench();
    await expect(t.run(grep, { pattern: "(" })).rejects.toThrow(/^invalid regular expression: /);
    await expect(t.run(grep, { pattern: "x", path: "nope" })).rejects.toThrow("nope does not exist");
  });
});
