import { statSync } from "node:fs";
import { dirname } from "node:path";
import { UserError } from "../kernel/errors.js";
import { writeFileAtomically } from "../kernel/fs/atomic-write.js";
import { ensurePrivateDir } from "../kernel/fs/private-dir.js";
import { readRegularFile, UnusableFileError } from "../kernel/fs/regular-file.js";
import { isMissingPathError } from "../kernel/fs/stat.js";

/** A stored key. The type leaves room for other kinds of credentials later. */
export interface StoredCredential {
  type: "api";
  key: string;
}

/** `auth.json` cannot be used; the message names the file and never its content. */
export class AuthStoreError extends UserError {
  override name = "AuthStoreError";
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}

const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const MAX_BYTES = 1024 * 1024;

/**
 * bosun's own credentials: `<data>/auth.json`, `{"<provider>": {"type": "api", "key": "…"}}`,
 * readable by the user only (0600, in a 0700 folder), replaced atomically on every change.
 * Values only ever leave through `get`; nothing here prints or logs them.
 */
export class AuthStore {
  constructor(readonly file: string) {}

  /** Every stored credential; an absent file is an empty store. */
  read(): Record<string, StoredCredential> {
    let text: string;
    try {
      text = readRegularFile(this.file, MAX_BYTES).toString("utf8");
    } catch (error) {
      if (isMissingPathError(error)) return {};
      if (error instanceof UnusableFileError) throw new AuthStoreError(this.file, `${error.problem}; move it away, then run bosun auth set again`);
      throw new AuthStoreError(this.file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // The parser's message can quote the text around the problem, which may be a key.
      throw new AuthStoreError(this.file, "is not valid JSON; fix or remove it, then run bosun auth set again");
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new AuthStoreError(this.file, "must hold a JSON object");
    const store: Record<string, StoredCredential> = {};
    for (const [provider, entry] of Object.entries(value)) {
      const key = (entry as { key?: unknown } | null)?.key;
      if (!PROVIDER_ID.test(provider) || (entry as { type?: unknown }).type !== "api" || typeof key !== "string" || key === "") {
        throw new AuthStoreError(this.file, `the entry ${JSON.stringify(provider)} is not {"type": "api", "key": "…"}`);
      }
      store[provider] = { type: "api", key };
    }
    return store;
  }

  /** The providers that have a stored key. */
  providers(): string[] {
    return Object.keys(this.read()).sort();
  }

  get(provider: string): StoredCredential | undefined {
    return this.read()[provider];
  }

  async set(provider: string, key: string): Promise<void> {
    if (!PROVIDER_ID.test(provider)) throw new AuthStoreError(this.file, `${JSON.stringify(provider)} is not a provider id`);
    const store = this.read();
    store[provider] = { type: "api", key };
    await this.write(store);
  }

  /** Removes a stored key; false when there was none. */
  async remove(provider: string): Promise<boolean> {
    const store = this.read();
    if (!(provider in store)) return false;
    delete store[provider];
    await this.write(store);
    return true;
  }

  /** True when the file exists and others than its owner may read or write it. */
  isExposed(): boolean {
    try {
      const info = statSync(this.file);
      return info.isFile() && (info.mode & 0o077) !== 0;
    } catch {
      return false;
    }
  }

  private async write(store: Record<string, StoredCredential>): Promise<void> {
    ensurePrivateDir(dirname(this.file));
    const sorted = Object.fromEntries(Object.entries(store).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    await writeFileAtomically(this.file, JSON.stringify(sorted, null, 2) + "\n", { mode: 0o600, fsync: true });
  }
}
