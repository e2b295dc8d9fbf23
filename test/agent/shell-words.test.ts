import { describe, expect, it } from "vitest";
import { parseScript, type Stage } from "../../src/agent/shell/shell-syntax.js";
import { tokenize, type Token } from "../../src/agent/shell/shell-words.js";

/** The tokens without their positions, for comparing. */
const brief = (command: string) =>
  tokenize(command).map((token: Token) =>
    token.kind === "op" ? token.value : { value: token.value, ...(token.expands ? { expands: true } : {}), ...(token.substitutions.length > 0 ? { substitutions: token.substitutions } : {}) },
  );

describe("the shell tokenizer", () => {
  it("splits words as a shell does", () => {
    expect(brief(`a "b c" 'd $e' f\\ g 2>&1 > out`)).toEqual([{ value: "a" }, { value: "b c" }, { value: "d $e" }, { value: "f g" }, ">", { value: "out" }]);
  });

  it("keeps where each word starts and whether it holds a pattern", () => {
    const [a, b, c] = tokenize(`ls *.ts 'x*'`);
    expect(a).toMatchObject({ value: "ls", start: 0, glob: false });
    expect(b).toMatchObject({ value: "*.ts", start: 3, glob: true });
    expect(c).toMatchObject({ value: "x*", start: 8, glob: false });
  });

  it("keeps substitutions inside their word and collects their scripts", () => {
    expect(brief("echo \"$(cd ..; ls)\" `pwd` <(sort a) ${X:-$(date)}")).toEqual([
      { value: "echo" },
      { value: "$(cd ..; ls)", expands: true, substitutions: ["cd ..; ls"] },
      { value: "`pwd`", expands: true, substitutions: ["pwd"] },
      { value: "<(sort a)", expands: true, substitutions: ["sort a"] },
      { value: "${X:-$(date)}", expands: true, substitutions: ["date"] },
    ]);
    expect(brief("$(echo $(echo x))")).toEqual([{ value: "$(echo $(echo x))", expands: true, substitutions: ["echo $(echo x)"] }]);
  });

  it("reads here-document bodies as the word after <<, quoted or not", () => {
    expect(brief("cat <<'EOF' > f\n$x `y`\nEOF\nls")).toEqual([{ value: "cat" }, "<<", { value: "$x `y`\n" }, ">", { value: "f" }, "\n", { value: "ls" }]);
    expect(brief("cat <<EOF\n$(date) \\$HOME\nEOF")).toEqual([{ value: "cat" }, "<<", { value: "$(date) $HOME\n", expands: true, substitutions: ["date"] }, "\n"]);
    expect(brief("sh <<-X\n\tls\n\tX\npwd")).toEqual([{ value: "sh" }, "<<-", { value: "ls\n" }, "\n", { value: "pwd" }]);
  });

  it("decodes $'…', drops descriptor duplications and keeps `>& file`", () => {
    expect(brief("$'\\x72m' 2>&1 >&2 >& log")).toEqual([{ value: "rm" }, ">&", { value: "log" }]);
  });

  it("reads (( … )) and array assignments as single words", () => {
    expect(brief("(( $# > 1 )) && a=(\"$@\" $(ls))")).toEqual([
      { value: "(( $# > 1 ))" },
      "&&",
      { value: 'a=("$@" $(ls))', expands: true, substitutions: ["ls"] },
    ]);
  });
});

const shape = (stage: Stage): unknown =>
  stage.kind === "subshell" ? { subshell: stage.body.map((p) => p.stages.map(shape)) } : `${stage.casePattern ? "pattern:" : ""}${stage.words.map((w) => w.value).join(" ")}`;

describe("the shell parser", () => {
  it("splits pipelines, subshells and background commands", () => {
    const pipelines = parseScript("a | b && (cd x; c) > out & d");
    expect(pipelines.map((p) => ({ stages: p.stages.map(shape), background: p.background }))).toEqual([
      { stages: ["a", "b"], background: false },
      { stages: [{ subshell: [["cd x"], ["c"]] }], background: true },
      { stages: ["d"], background: false },
    ]);
    expect(pipelines[1]!.stages[0]!.redirects.map((r) => [r.op, r.target.value])).toEqual([[">", "out"]]);
  });

  it("marks case patterns and skips function definitions' parentheses", () => {
    expect(parseScript('case "$1" in a|"$2") rm x ;; *) ls ;; esac; f() { pwd; }').map((p) => p.stages.map(shape))).toEqual([
      ['pattern:case $1 in a', 'pattern:$2'],
      ["rm x"],
      ["pattern:*"],
      ["ls"],
      ["esac"],
      ["{ pwd"],
      ["}"],
    ]);
  });
});
