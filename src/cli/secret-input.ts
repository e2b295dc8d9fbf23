import { UserError } from "../kernel/errors.js";
import type { InputStream, Output } from "./output.js";

const MAX_SECRET_BYTES = 64 * 1024;

/**
 * Reads one secret from standard input: at a terminal, typed at a prompt that does not echo;
 * otherwise piped in (one line; the trailing newline is dropped). Never from the command line,
 * where it would land in the shell history and the process list.
 */
export async function readSecret(output: Output, prompt: string, howToPipe: string): Promise<string> {
  const stdin: InputStream = output.stdin ?? process.stdin;
  const value = stdin.isTTY && stdin.setRawMode ? await promptHidden(stdin, output.stderr, prompt) : await readPiped(stdin);
  const line = value.replace(/\r?\n$/, "");
  if (line.trim() === "") throw new UserError(`no key on standard input; ${howToPipe}`);
  if (/[\r\n]/.test(line)) throw new UserError("the key spans several lines; give exactly one line");
  return line.trim();
}

async function readPiped(stdin: InputStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_SECRET_BYTES) throw new UserError(`standard input is larger than ${MAX_SECRET_BYTES} bytes; that is not a key`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function promptHidden(stdin: InputStream, stderr: NodeJS.WritableStream, prompt: string): Promise<string> {
  stderr.write(prompt);
  stdin.setRawMode!(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = () => {
      stdin.off("data", onData);
      stdin.setRawMode!(false);
      stdin.pause();
      stderr.write("\n");
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of chunk.toString()) {
        if (char === "\r" || char === "\n" || (char === "\u0004" && value !== "")) {
          finish();
          resolve(value);
          return;
        }
        if (char === "\u0003" || char === "\u0004") {
          finish();
          reject(new UserError("cancelled; nothing was saved"));
          return;
        }
        if (char === "\u007f" || char === "\b") value = value.slice(0, -1);
        else if (char >= " ") value += char;
      }
    };
    stdin.on("data", onData);
  });
}
