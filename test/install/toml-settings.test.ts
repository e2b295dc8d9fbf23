// Settings in a TOML config (Codex's config.toml): bosun's table appended at the end between
// markers that name it, replaced between them, taken out byte for byte; your BOM, CRLF, comments
// and tables untouched; your own table at the path replaced only when the plan asks you; a file
// that defines the path where bosun cannot edit it refused with the reason.
import { describe, expect, it } from "vitest";
import { settingsSyntaxOf } from "../../src/install/config/settings-syntax.js";
import { parseToml } from "../../src/install/config/toml-block.js";
import { applyTomlSetting, findMarkedTable, removeTomlSetting, tomlLeftEmpty, tomlSettingSlotProblem, tomlTableBegin, tomlTableEnd } from "../../src/install/config/toml-settings.js";
import { tomlStatements } from "../../src/install/config/toml-statements.js";
import { tomlInline, tomlKey } from "../../src/install/config/toml-text.js";

const SERVER = { command: "node", args: ["/home/me/.codex/tools/serve.mjs", "--stdio"], env: { LOG_LEVEL: "debug" }, env_vars: ["TOOL_TOKEN"], startup_timeout_sec: 20 };
const EDIT = { path: ["mcp_servers", "tools"], mode: "value" as const, value: SERVER };
const valueOf = (text: string) => {
  const parsed = parseToml(text);
  if (!parsed.ok) throw new Error(`${parsed.problem} at line ${parsed.line}:\n${text}`);
  return parsed.value;
};
const rootOf = (text: string) => valueOf(text) as Record<string, any>;

/** Files in their users' styles: BOM, CRLF, comments, tables of theirs, servers of theirs, no final line ending. */
const USER_FILES = [
  "",
  "\ufeff",
  '\ufeff# my own config\r\nmodel = "mine" # keep this\r\n\r\n[mine]\r\nkey = 1\r\n',
  'model = "o3"\n\n[mcp_servers.mine]\ncommand = "my-server"\nargs = ["--flag"] # mine\n',
  "[mcp_servers]\nmine.command = \"x\"\n",
  'mcp_servers.mine.command = "x"\n[projects."/work"]\ntrust_level = "trusted"',
  '# >>> bosun: managed block (bosun install writes it, bosun uninstall removes it) >>>\nfeatures.codex_hooks = true\n# <<< bosun <<<\n[tui]\nnotifications = true\n',
  'notes = """\n[mcp_servers.tools]\ncommand = "not a table"\n"""\n',
];

describe("bosun's table in a TOML file", () => {
  it("is appended at the end in the file's line endings, between markers naming it, and taken out byte for byte", () => {
    for (const original of USER_FILES) {
      const { text, created } = applyTomlSetting(original, EDIT);
      const root = rootOf(text);
      expect(root.mcp_servers.tools, JSON.stringify(original)).toEqual(SERVER);
      expect(text.startsWith(original), "everything before is yours, as it was").toBe(true);
      expect(text).toContain(tomlTableBegin("mcp_servers.tools"));
      expect(text).toContain(tomlTableEnd("mcp_servers.tools"));
      if (original.includes("\r\n")) expect(text.split("\n").slice(0, -1).every((line) => line.endsWith("\r")), "CRLF kept").toBe(true);
      else expect(text).not.toContain("\r");
      if (original.replace(/^\ufeff/, "") !== "" && !original.endsWith("\n")) expect(text.endsWith("\n"), "a file without a final line ending keeps ending without one").toBe(false);
      expect(created).toBe(original.includes("mcp_servers") && !original.includes('"""') ? 0 : 1);
      expect(removeTomlSetting(text, EDIT), JSON.stringify(original)).toBe(original);
    }
  });

  it("writes what TOML holds: quoted keys and strings where needed, inline tables, numbers and booleans", () => {
    const value = { command: 'say "hi"\\', args: ["a\tb", "ünï", "\u007f"], env: { "X-Y": "1", ok: "line\nbreak" }, tool_timeout_sec: 1.5, enabled: false };
    const edit = { path: ["mcp_servers", "odd name"], mode: "value" as const, value };
    const { text } = applyTomlSetting("", edit);
    expect(text).toContain('[mcp_servers."odd name"]\n');
    expect(rootOf(text).mcp_servers["odd name"]).toEqual(value);
    expect(removeTomlSetting(text, edit)).toBe("");
    expect(tomlKey(["a.b", "c"])).toBe('"a.b".c');
    expect(() => tomlInline(null, "x")).toThrow("x: null cannot be written in TOML");
  });

  it("an upgrade replaces what is between bosun's markers, in place; the rest stays", () => {
    const original = '# mine\r\n[mine]\r\nkey = 1\r\n';
    const first = applyTomlSetting(original, EDIT).text;
    const withMore = `${first}[after]\r\nx = 2\r\n`;
    const next = applyTomlSetting(withMore, { ...EDIT, value: { command: "node", args: ["v2.mjs"] } }).text;
    expect(next.startsWith(original)).toBe(true);
    expect(next.endsWith("[after]\r\nx = 2\r\n")).toBe(true);
    expect(rootOf(next).mcp_servers.tools).toEqual({ command: "node", args: ["v2.mjs"] });
    expect(removeTomlSetting(next, EDIT)).toBe(`${original}[after]\r\nx = 2\r\n`);
  });

  it("two of bosun's tables come out in either order, whatever the file ended with", () => {
    const other = { path: ["mcp_servers", "other"], mode: "value" as const, value: { command: "other" } };
    for (const original of ["a = 1", "a = 1\n", ""]) {
      const both = applyTomlSetting(applyTomlSetting(original, EDIT).text, other).text;
      expect(Object.keys(rootOf(both).mcp_servers)).toEqual(["tools", "other"]);
      expect(removeTomlSetting(removeTomlSetting(both, EDIT), other)).toBe(original);
      expect(removeTomlSetting(removeTomlSetting(both, other), EDIT)).toBe(original);
    }
  });

  it("a table of yours at the path is replaced only when asked (the plan backs your file up first): its header, keys and sub-tables go, your comments after it and your other tables stay", () => {
    const mine = '[mcp_servers.tools]\ncommand = "mine"\n\n[mcp_servers.tools.env]\nA = "1"\n# about the next table\n\n[other]\nx = 1\n';
    const { text } = applyTomlSetting(mine, EDIT);
    expect(rootOf(text)).toEqual({ mcp_servers: { tools: SERVER }, other: { x: 1 } });
    expect(text.startsWith("# about the next table\n\n[other]\nx = 1\n")).toBe(true);
    // Dotted keys of yours that define it go too.
    for (const dotted of ['mcp_servers.tools.command = "mine"\n[x]\ny = 1\n', '[mcp_servers]\ntools.command = "mine"\nother.command = "o"\n', '[mcp_servers]\ntools = { command = "mine" }\n']) {
      const replaced = rootOf(applyTomlSetting(dotted, EDIT).text);
      expect(replaced.mcp_servers.tools, dotted).toEqual(SERVER);
      expect({ ...replaced, mcp_servers: { ...replaced.mcp_servers, tools: undefined } }).toEqual({ ...rootOf(dotted), mcp_servers: { ...rootOf(dotted).mcp_servers, tools: undefined } });
    }
  });

  it("your edits inside bosun's markers: replaced on a planned replace, left by a removal that would take more than bosun wrote", () => {
    const text = applyTomlSetting("a = 1\n", EDIT).text;
    const edited = text.replace('command = "node"', 'command = "node"\nextra = true');
    expect(rootOf(edited).mcp_servers.tools.extra).toBe(true);
    // The value there is not bosun's now: removing it as bosun wrote it changes nothing.
    const moreInside = text.replace(tomlTableEnd("mcp_servers.tools"), `[mine]\nkey = 1\n${tomlTableEnd("mcp_servers.tools")}`);
    expect(removeTomlSetting(moreInside, EDIT)).toBe(moreInside);
    expect(rootOf(applyTomlSetting(edited, EDIT).text).mcp_servers.tools).toEqual(SERVER);
  });

  it("markers gone but the table exactly bosun's: the removal takes the table out", () => {
    const text = applyTomlSetting("a = 1\n", EDIT).text;
    const unmarked = text.split("\n").filter((line) => !line.startsWith("# ")).join("\n");
    expect(findMarkedTable(unmarked, "mcp_servers.tools")).toBeNull();
    expect(rootOf(removeTomlSetting(unmarked, EDIT))).toEqual({ a: 1 });
  });

  it("a path bosun cannot add to or edit is a problem with the reason; the same value there already is none", () => {
    const inline = 'mcp_servers = { mine = { command = "x" } }\n';
    expect(tomlSettingSlotProblem(inline, rootOf(inline), EDIT)).toBe("mcp_servers is written inline (mcp_servers = …); bosun can add [mcp_servers.tools] only beside [mcp_servers.…] tables");
    expect(() => applyTomlSetting(inline, EDIT)).toThrow(/written inline/);
    const notTable = "mcp_servers = 3\n";
    expect(tomlSettingSlotProblem(notTable, rootOf(notTable), EDIT)).toBe("mcp_servers is not a table");
    const array = "[[mcp_servers]]\nname = 1\n";
    expect(tomlSettingSlotProblem(array, rootOf(array), EDIT)).toBe("mcp_servers is not a table");
    const same = `mcp_servers = { tools = ${tomlInline(SERVER, "x")} }\n`;
    expect(tomlSettingSlotProblem(same, rootOf(same), EDIT)).toBeNull();
    expect(tomlSettingSlotProblem(null, {}, { path: ["a", "b"], mode: "entry", value: "x" })).toBe("bosun writes only whole tables into a TOML file, and a.b is not one");
    expect(tomlSettingSlotProblem(null, {}, { path: ["a", "b"], mode: "value", value: "x" })).toBe("bosun writes only whole tables into a TOML file, and a.b is not one");
    expect(tomlSettingSlotProblem(null, {}, EDIT)).toBeNull();
  });

  it("a file bosun created is empty again once its tables are gone; one with anything of yours is not", () => {
    const created = applyTomlSetting(null, EDIT).text;
    expect(created.startsWith(tomlTableBegin("mcp_servers.tools"))).toBe(true);
    expect(tomlLeftEmpty(removeTomlSetting(created, EDIT))).toBe(true);
    expect(tomlLeftEmpty("\ufeff\n")).toBe(true);
    expect(tomlLeftEmpty("# mine\n")).toBe(false);
  });

  it("a text that does not parse is an error with the line", () => {
    expect(() => applyTomlSetting('a = 1\nb = "open\n', EDIT)).toThrow(/^cannot edit a config that does not parse: invalid TOML \(.*\) at line 2$/);
    expect(settingsSyntaxOf("config.toml").parse("x = \n")).toMatchObject({ ok: false, line: 1 });
    expect(settingsSyntaxOf("settings.json").rewrite).toBe("rewrite-json");
    expect(settingsSyntaxOf("config.toml").rewrite).toBe("rewrite-toml");
  });
});

describe("the statements of a TOML text", () => {
  it("headers and keys with their full paths; strings, multi-line values and comments are not statements", () => {
    const text = '\ufeff# top\na.b = 1 # c\n[t."q.k"]\nx = """\n[not]\ny = 2\n"""\nlist = [\n  1, # one\n  2,\n]\n[[arr]]\nz = \'lit\'\n';
    expect(tomlStatements(text).map((statement) => `${statement.kind} ${statement.key.join("|")} ${JSON.stringify(text.slice(statement.lineStart, statement.end))}`)).toEqual([
      'value a|b "a.b = 1 # c\\n"',
      'table t|q.k "[t.\\"q.k\\"]\\n"',
      'value t|q.k|x "x = \\"\\"\\"\\n[not]\\ny = 2\\n\\"\\"\\"\\n"',
      'value t|q.k|list "list = [\\n  1, # one\\n  2,\\n]\\n"',
      'array-table arr "[[arr]]\\n"',
      "value arr|z \"z = 'lit'\\n\"",
    ]);
  });
});
