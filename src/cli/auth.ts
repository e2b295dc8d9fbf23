import type { Command } from "commander";
import { displayPath } from "../kernel/paths.js";
import { UserError } from "../kernel/errors.js";
import { bootForCommand } from "./boot.js";
import { columns, styler, notify, writeJson, writeLine, type Output } from "./output.js";

const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function registerAuth(program: Command, output: Output): void {
  const auth = program.command("auth").description("API keys bosun keeps for providers (in <data>/auth.json, readable only by you)");

  auth
    .command("set")
    .description("store a provider's API key, read from standard input (typed without echo at a terminal, or piped)")
    .argument("<provider>", "the provider id, e.g. anthropic")
    .action(async (provider: string) => {
      checkProviderId(provider);
      const [{ openCatalogForCommand }, { readSecret }] = await Promise.all([import("./catalog-command.js"), import("./secret-input.js")]);
      const session = await openCatalogForCommand(output, "never", 5_000);
      try {
        const known = session.location.catalog.read().provider.get(provider) !== undefined;
        const key = await readSecret(output, `API key for ${provider} (input hidden): `, `pipe it in, e.g. printf '%s' "$KEY" | bosun auth set ${provider}`);
        await session.location.authStore.set(provider, key);
        const file = displayPath(session.location.authStore.file, session.boot.paths.home);
        writeLine(output.stdout, `Saved the key for ${provider} in ${file} (readable only by you).`);
        if (!known) notify(output, `bosun: note: ${provider} is not in the catalog (bosun models --all lists its providers); the key is stored anyway`);
      } finally {
        await session.location.close();
      }
    });

  auth
    .command("remove")
    .description("delete a provider's stored API key")
    .argument("<provider>", "the provider id")
    .action(async (provider: string) => {
      checkProviderId(provider);
      const boot = await bootForCommand(output);
      const [{ AuthStore }, { authStoreFile }] = await Promise.all([import("../catalog/auth-store.js"), import("../catalog/catalog-files.js")]);
      const store = new AuthStore(authStoreFile(boot.paths.data));
      if (!(await store.remove(provider))) throw new UserError(`no key is stored for ${provider} (bosun auth list shows the stored ones)`);
      writeLine(output.stdout, `Removed the stored key for ${provider}.`);
    });

  auth
    .command("list")
    .description("which providers have a key, and where it comes from (never the key itself)")
    .option("--json", "print the list as JSON")
    .action(async (options: { json?: boolean }) => {
      const { openCatalogForCommand } = await import("./catalog-command.js");
      const session = await openCatalogForCommand(output, "never", 5_000);
      try {
        const { location, boot } = session;
        const reader = location.catalog.read();
        const stored = location.authStore.providers();
        const credentials: { provider: string; source: "config" | "auth" | "env"; variable?: string; inCatalog: boolean }[] = [];
        for (const provider of reader.provider.all()) {
          const credential = reader.credential(provider.id);
          if (credential) credentials.push({ provider: provider.id, ...credential, inCatalog: true });
        }
        for (const provider of stored) {
          if (!reader.provider.get(provider)) credentials.push({ provider, source: "auth", inCatalog: false });
        }
        const exposed = location.authStore.isExposed();
        if (options.json) {
          writeJson(output, { file: location.authStore.file, exposed, credentials });
          return;
        }
        const style = styler(output);
        const file = displayPath(location.authStore.file, boot.paths.home);
        writeLine(output.stdout, `${style("bold", "Credentials")}  ${style("dim", `stored keys: ${file}`)}`);
        if (exposed) writeLine(output.stdout, style("yellow", `  ! ${file} can be read by other users; run chmod 600 on it`));
        if (credentials.length === 0) {
          writeLine(output.stdout, `  ${style("dim", "none: set a provider's key variable, or run bosun auth set PROVIDER")}`);
          return;
        }
        const where = (c: (typeof credentials)[number]) =>
          c.source === "env" ? `environment variable ${c.variable}` : c.source === "auth" ? `stored by bosun auth${c.inCatalog ? "" : style("dim", " (not in the catalog)")}` : "apiKey in bosun.json";
        for (const line of columns(credentials.map((c) => [c.provider, where(c)]))) writeLine(output.stdout, line);
      } finally {
        await session.location.close();
      }
    });
}

function checkProviderId(provider: string): void {
  if (!PROVIDER_ID.test(provider)) throw new UserError(`${JSON.stringify(provider)} is not a provider id (letters, digits, '.', '_', '-')`);
}
