import { mkdir, open, readdir, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

export type EntryKind = "file" | "directory" | "symlink" | "other";

export interface FileInfo {
  kind: EntryKind;
  size: number;
  mtimeMs: number;
}

/**
 * The file system as the file tools see it. The default is the local disk; a different
 * implementation (a remote host, an in-memory tree) changes where tools work without changing them.
 */
export interface FileOperations {
  /** Follows symlinks; null when the path does not exist. */
  stat(path: string): Promise<FileInfo | null>;
  /** At most `maxBytes` from the start of the file. */
  readFile(path: string, maxBytes: number): Promise<Buffer>;
  /** Creates missing parent folders; keeps the mode of a file it replaces. */
  writeFile(path: string, content: string): Promise<void>;
  /** Entries of a folder; symlinks are reported as such and not followed. */
  readdir(dir: string): Promise<{ name: string; kind: EntryKind }[]>;
}

export const localFileOperations: FileOperations = {
  async stat(path) {
    try {
      const info = await stat(path);
      return { kind: info.isFile() ? "file" : info.isDirectory() ? "directory" : "other", size: info.size, mtimeMs: info.mtimeMs };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP") return null;
      throw error;
    }
  },
  async readFile(path, maxBytes) {
    const handle = await open(path, "r");
    try {
      const size = (await handle.stat()).size;
      const buffer = Buffer.alloc(Math.min(size, maxBytes));
      let offset = 0;
      while (offset < buffer.length) {
        const { bytesRead } = await handle.read(buffer, offset, buffer.length - offset, offset);
        if (bytesRead === 0) break;
        offset += bytesRead;
      }
      return buffer.subarray(0, offset);
    } finally {
      await handle.close();
    }
  },
  async writeFile(path, content) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
  },
  async readdir(dir) {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.map((entry) => ({
      name: entry.name,
      kind: entry.isFile() ? "file" : entry.isDirectory() ? "directory" : entry.isSymbolicLink() ? "symlink" : "other",
    }));
  },
};

/** A NUL byte in the first 8 KiB: treated as binary, as git does. */
export function looksBinary(buffer: Buffer): boolean {
  return buffer.subarray(0, 8192).includes(0);
}
