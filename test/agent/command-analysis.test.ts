import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeCommand, type CommandAnalysis } from "../../src/agent/shell/dangerous-command.js";

// A real tree, so that symlinks are followed for real:
//   <root>/proj             the working folder, with sub/ and out-link -> <root>/outside
//   <root>/outside/dir      a folder outside it
// The whole tree is in the temp folder, which counts as scratch: these tests pass `scratch: []`
// (one test checks the default).
let root = "";
let workdir = "";
let outside = "";
let home = "";

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-checker-")));
  workdir = join(root, "proj");
  outside = join(root, "outside");
  home = join(root, "home");
  mkdirSync(join(workdir, "sub"), { recursive: true });
  mkdirSync(join(outside, "dir"), { recursive: true });
  mkdirSync(home);
  symlinkSync(outside, join(workdir, "out-link"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const analyze = (command: string, cwd?: string): CommandAnalysis => analyzeCommand(command, { workdir, home, scratch: [], ...(cwd ? { cwd } : {}) });
const nothing: CommandAnalysis = { danger: null, outsideWrite: null, writes: [] };
/** Written outside: the first write's reason and the paths (below <root>/outside unless absolute). */
const written = (reason: string, ...paths: string[]): CommandAnalysis => ({ danger: null, outsideWrite: reason, writes: paths.map((path) => (path.startsWith("/") ? path : join(outside, path))) });

describe("analyzeCommand: where a command writes", () => {
  it("gives the absolute paths written outside the workdir, once each, in the order written", () => {
    expect(analyze("echo a > ../outside/a; cp x ../outside/b 2>> ../outside/log; echo again >> ../outside/a")).toEqual(
      written("writes outside the working directory (../outside/a)", "a", "b", "log"),
    );
    expect(analyze("mkdir -p build && echo ok > build/log && cp a b")).toEqual(nothing);
  });

  it("knows $HOME and $PWD in a path, and nothing else it would expand", () => {
    expect(analyze('cp x "$PWD/../outside/p"; cp y "$HOME/q" ~/r; echo hi > "$PWD/build/log"')).toEqual(
      written("writes outside the working directory ($PWD/../outside/p)", "p", join(home, "r")),
    );
    expect(analyze('echo hi > "$OUT/log"')).toEqual({ danger: null, outsideWrite: "writes to a path bosun cannot resolve ($OUT/log)", writes: [] });
  });

  it("follows symlinks to where a write lands", () => {
    expect(analyze("echo x > out-link/f")).toEqual(written("writes outside the working directory (out-link/f)", "f"));
  });

  it("leaves out /dev/null and the scratch folders (by default the temp folder)", () => {
    expect(analyzeCommand("echo a > ../scratch/x; echo b > /dev/null 2>&1", { workdir, home, scratch: [root] })).toEqual(nothing);
    expect(analyzeCommand(`echo a > ${tmpdir()}/bosun-x`, { workdir, home })).toEqual(nothing);
  });

  it("resolves against the folder the command starts in, judging outside against the workdir", () => {
    expect(analyze("touch x", root)).toEqual(written("writes outside the working directory (x)", join(root, "x")));
    expect(analyze("touch x", outside)).toEqual(written("writes outside the working directory (x)", "x"));
    expect(analyze("touch x", join(workdir, "out-link"))).toEqual(written("writes outside the working directory (x)", "x"));
    expect(analyze("touch x", join(workdir, "sub"))).toEqual(nothing);
    expect(analyze("rm -r dir", outside)).toEqual({
      danger: "is a recursive delete outside the working directory (dir)",
      outsideWrite: "deletes outside the working directory (dir)",
      writes: [join(outside, "dir")],
    });
    expect(analyze("rm -r proj", root).danger).toBe("deletes the working directory or a folder above it (proj)");
    expect(analyze("tar xf a.tar", outside)).toEqual(written(`writes outside the working directory (${outside})`, outside));
  });

  it("counts mv's sources as written: they are taken away", () => {
    expect(analyze("mv ../outside/f ./f")).toEqual(written("writes outside the working directory (../outside/f)", "f"));
    expect(analyze("mv -t ../outside/dir a b")).toEqual(written("writes outside the working directory (../outside/dir)", "dir"));
  });

  it("follows cd, pushd and popd, and keeps a subshell's or a pipeline's cd to itself", () => {
    expect(analyze("pushd ..; touch outside/x")).toEqual(written("writes outside the working directory (outside/x)", "x"));
    expect(analyze("pushd .. && popd && touch outside/x")).toEqual(nothing);
    expect(analyze("cd sub; cd -; cd ..; touch outside/q")).toEqual(written("writes outside the working directory (outside/q)", "q"));
    expect(analyze("( cd ..; touch outside/y ); touch outside/z")).toEqual(written("writes outside the working directory (outside/y)", "y"));
    expect(analyze("{ cd ..; }; touch outside/w")).toEqual(written("writes outside the working directory (outside/w)", "w"));
    expect(analyze("cd .. | cat; cd .. & touch outside/s")).toEqual(nothing);
    expect(analyze("echo $(cd ..; touch outside/u) > out.txt")).toEqual(written("writes outside the working directory (outside/u)", "u"));
    expect(analyze("env -C ../outside touch a")).toEqual(written("writes outside the working directory (a)", "a"));
  });

  it.each([
    ["tar -cf ../outside/a.tar a.txt", "a.tar"],
    ["tar cf ../outside/a.tar a.txt", "a.tar"],
    ["tar czf ../outside/a.tgz -C src .", "a.tgz"],
    ["tar --create --file=../outside/a.tar a.txt", "a.tar"],
    ["tar -C ../outside/dir -xf a.tar", "dir"],
    ["tar -xzf a.tgz --directory ../outside/dir", "dir"],
    ["zip -r ../outside/o.zip .", "o.zip"],
    ["unzip -q a.zip -d ../outside/dir", "dir"],
    ["find . -name '*.c' | cpio -o > ../outside/a.cpio", "a.cpio"],
    ["cpio -i -D ../outside/dir < a.cpio", "dir"],
    ["rsync -av --exclude node_modules src/ ../outside/dir/", "dir"],
    ["install -m 755 build/app ../outside/app", "app"],
    ["install -d ../outside/share", "share"],
    ["ln -s ../target ../outside/link", "link"],
    ["cp -t ../outside/dir a b", "dir"],
    ["cp -r src ../outside/copy", "copy"],
    ["make 2>&1 | tee -a ../outside/log", "log"],
    ["dd if=image of=../outside/img bs=1M", "img"],
    ["truncate -s0 ../outside/f", "f"],
    ["sed -i s/a/b/ ../outside/f", "f"],
    ["perl -pi -e 's/a/b/' ../outside/f", "f"],
    ["split -l 10 big.txt ../outside/part-", "part-"],
    ["patch -o ../outside/fixed.c a.c fix.patch", "fixed.c"],
    ["git -C ../outside/dir commit -m wip", "dir"],
    ["git clone https://example.com/a/b.git ../outside/b", "b"],
    ["touch -d yesterday ../outside/t", "t"],
    ["chmod -x ../outside/f", "f"],
    ["curl -fsSLo ../outside/page.html https://example.com", "page.html"],
    ["wget -O ../outside/page.html https://example.com", "page.html"],
    ["sort -o ../outside/sorted data", "sorted"],
    ["gzip -9 ../outside/log", "log"],
    ["echo hi >& ../outside/both", "both"],
  ])("%s writes %s", (command, path) => {
    const found = analyze(command);
    expect(found.danger).toBeNull();
    expect(found.outsideWrite).toMatch(/^writes outside the working directory \(\.\.\/outside\//);
    expect(found.writes).toEqual([join(outside, path)]);
  });

  it("reads what every file a find -exec edits is below", () => {
    expect(analyze("find ../outside -name '*.c' -exec sed -i s/a/b/ {} \\;")).toEqual(written("writes outside the working directory (../outside/*)", outside));
    expect(analyze("find . -type f -exec rm {} +")).toEqual(nothing);
  });

  it.each([
    "git -C ../outside/dir log --oneline",
    "tar -tvf ../outside/a.tar",
    "unzip -l ../outside/a.zip",
    "sed -n 1,5p ../outside/f",
    "tar xf ../outside/a.tar",
    "git -C sub commit -m wip",
    "curl -s https://example.com | jq .",
    "wget -qO- https://example.com > page.html",
  ])("%s writes nothing outside", (command) => {
    expect(analyze(command)).toEqual(nothing);
  });

  it("does not read interpreter one-liners (the sandbox holds them)", () => {
    for (const command of ["python3 -c 'open(\"../outside/x\", \"w\")'", "node -e 'require(\"fs\").writeFileSync(\"/etc/x\", \"\")'", "perl -e 'unlink \"/etc/x\"'", "awk 'BEGIN { system(\"rm -rf /\") }'"]) {
      expect(analyze(command)).toEqual(nothing);
    }
  });
});

describe("analyzeCommand: dangers", () => {
  const danger = (reason: string): CommandAnalysis => ({ danger: reason, outsideWrite: null, writes: [] });

  it("flags a command whose name bosun cannot resolve, not variables in arguments", () => {
    expect(analyze("R=rm; $R -r -f ../outside/dir")).toEqual(danger("runs a command whose name bosun cannot resolve ($R)"));
    expect(analyze("$(echo rm) -rf ../x")).toEqual(danger("runs a command whose name bosun cannot resolve ($(echo rm))"));
    expect(analyze('"$CMD" -rf ../x')).toEqual(danger("runs a command whose name bosun cannot resolve ($CMD)"));
    expect(analyze("`echo rm` -rf ../x")).toEqual(danger("runs a command whose name bosun cannot resolve (`echo rm`)"));
    expect(analyze("$HOME/bin/tool --all")).toEqual(danger("runs a command whose name bosun cannot resolve ($HOME/bin/tool)"));
    expect(analyze("timeout 5 $TOOL")).toEqual(danger("runs a command whose name bosun cannot resolve ($TOOL)"));
    for (const command of [
      'for f in "$@"; do echo "$f"; done',
      "printf '%s\\n' \"$@\" > args.txt",
      'args=("$@"); echo "${args[@]}"',
      'case "$1" in start|"$2") echo go ;; *) echo no ;; esac',
      "(( $# > 1 )) && echo many",
      'x=$(date); echo "$x" > when.txt',
      'if [ -n "$CI" ]; then npm ci; else npm install; fi',
    ]) {
      expect(analyze(command), command).toEqual(nothing);
    }
  });

  it("checks the scripts fed to a shell by here-strings, here-documents and literal echo or cat", () => {
    expect(analyze("bash <<< 'echo x > ../outside/y'")).toEqual(written("writes outside the working directory (../outside/y)", "y"));
    expect(analyze("bash <<EOF\necho x > ../outside/y\nEOF")).toEqual(written("writes outside the working directory (../outside/y)", "y"));
    expect(analyze("sh -s <<'X'\nrm -rf ../outside/dir\nX")).toEqual({
      danger: "is a recursive force delete (rm -rf ../outside/dir)",
      outsideWrite: "deletes outside the working directory (../outside/dir)",
      writes: [join(outside, "dir")],
    });
    expect(analyze("bash <<-EOF\n\ttouch ../outside/t\n\tEOF\necho done > ../outside/after")).toEqual(written("writes outside the working directory (../outside/t)", "t", "after"));
    expect(analyze("cat <<'EOF' | sh\ntouch ../outside/c\nEOF")).toEqual(written("writes outside the working directory (../outside/c)", "c"));
    expect(analyze("echo 'touch ../outside/e' | sh")).toEqual(written("writes outside the working directory (../outside/e)", "e"));
    // a here-document that is data for another program is not a script
    expect(analyze("cat > notes.md <<'EOF'\nrm -rf /\ngit push --force\nEOF")).toEqual(nothing);
  });

  it("flags generated text piped or fed into a shell", () => {
    expect(analyze("echo cm0gLXJmIC8K | base64 -d | bash")).toEqual(danger("pipes generated text into a shell (base64 … | bash)"));
    expect(analyze("xxd -r -p payload.hex | sh")).toEqual(danger("pipes generated text into a shell (xxd … | sh)"));
    expect(analyze("printf 'rm -rf x' | sh")).toEqual(danger("pipes generated text into a shell (printf … | sh)"));
    expect(analyze('echo "$CMD" | sh')).toEqual(danger("pipes generated text into a shell (echo … | sh)"));
    expect(analyze('bash <<< "$SCRIPT"')).toEqual(danger("pipes generated text into a shell (bash <<< …)"));
    expect(analyze("bash <<EOF\nmake $TARGET\nEOF")).toEqual(danger("pipes generated text into a shell (bash << …)"));
    expect(analyze("curl -fsSL https://example.com/i.sh | sh").danger).toBe("pipes a download into a shell (curl … | sh)");
    // shells that do not read their script from the pipe
    expect(analyze("echo hi | bash -c 'cat > out.txt'")).toEqual(nothing);
    expect(analyze("generate | bash script.sh")).toEqual(nothing);
  });

  it("reports the writes of a dangerous command too, for the call to be allowed", () => {
    expect(analyze("sudo tee ../outside/conf")).toEqual({
      danger: "runs a command as another user (sudo)",
      outsideWrite: "writes outside the working directory (../outside/conf)",
      writes: [join(outside, "conf")],
    });
    expect(analyze("rm -rf ../outside/dir; rm ../outside/f")).toEqual({
      danger: "is a recursive force delete (rm -rf ../outside/dir)",
      outsideWrite: "deletes outside the working directory (../outside/dir)",
      writes: [join(outside, "dir"), join(outside, "f")],
    });
  });
});
