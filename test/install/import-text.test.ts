// The path rewrites of `bosun pack import`, rule by rule (src/install/import/import-text.ts).
import { describe, expect, it } from "vitest";
import { rewriteCommand, rewriteText, type FolderNames } from "../../src/install/import/import-text.js";

const names: FolderNames = { configDir: "/home/u/.claude", home: "/home/u", carried: [{ dir: "gsd-core", to: "" }, { dir: "hooks", to: "hooks" }] };

describe("pack import path rewrites", () => {
  const cases: [string, string, string][] = [
    ["~/ form of the pack's own folder", "@~/.claude/gsd-core/workflows/x.md", "@{pack-dir}/workflows/x.md"],
    ["another carried folder", "see ~/.claude/hooks/lib/a.js", "see {pack-dir}/hooks/lib/a.js"],
    ["a folder not carried", "edit ~/.claude/CLAUDE.md", "edit {config-dir}/CLAUDE.md"],
    ["the absolute path", "cat /home/u/.claude/gsd-core/VERSION", "cat {pack-dir}/VERSION"],
    ["the folder itself", "in ~/.claude.", "in {config-dir}."],
    ["$HOME, unquoted", "node $HOME/.claude/gsd-core/bin/t.cjs", "node {pack-dir}/bin/t.cjs"],
    ["${HOME}", "ls ${HOME}/.claude/skills", "ls {config-dir}/skills"],
    ["a whole double-quoted path loses its quotes", 'S="$HOME/.claude/gsd-core/bin"', "S={pack-dir}/bin"],
    ["$HOME inside a longer quoted string stays", '"written to $HOME/.claude/gsd-core/X.md now"', '"written to $HOME/.claude/gsd-core/X.md now"'],
    ["a fallback for the variable stays", "${CLAUDE_CONFIG_DIR:-$HOME/.claude}/gsd-core", "${CLAUDE_CONFIG_DIR:-$HOME/.claude}/gsd-core"],
    ["a longer folder name is not the folder", "~/.claude-old/x and /home/u/.claudex", "~/.claude-old/x and /home/u/.claudex"],
    ["a project's ./.claude is not the global folder", "./.claude/x", "./.claude/x"],
  ];
  for (const [what, input, output] of cases) it(what, () => expect(rewriteText(input, names)).toBe(output));

  it("rewrites hook commands the same way, quoted absolute paths included", () => {
    expect(rewriteCommand('node "/home/u/.claude/hooks/guard.js"', names)).toBe("node {pack-dir}/hooks/guard.js");
    expect(rewriteCommand('bash "$HOME"/.claude/hooks/a.sh', names)).toBe("bash {pack-dir}/hooks/a.sh");
    expect(rewriteCommand('node "/home/u/.claude/hooks/my file.js"', names)).toBe('node "{pack-dir}/hooks/my file.js"');
  });

  it("a runtime folder outside the home folder is rewritten only by its absolute path", () => {
    const outside: FolderNames = { configDir: "/opt/claude", home: "/home/u", carried: [] };
    expect(rewriteText("/opt/claude/x ~/.claude/y $HOME/.claude/z", outside)).toBe("{config-dir}/x ~/.claude/y $HOME/.claude/z");
  });
});
