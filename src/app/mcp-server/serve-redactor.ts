import { collectSecrets, Redactor } from "../../kernel/redact/secrets.js";
import type { Boot } from "../start.js";

/**
 * What every answer of the server is redacted with on its way out: the values of variables whose
 * names say they hold a credential, and of those bosun.json `secrets` lists. The read-only tools
 * answer with paths, names and states only, as the CLI prints them; a delegate run redacts with
 * its own, fuller redactor (the catalog's key variables, bosun's stored keys). This is the net
 * under both.
 */
export async function serveRedactor(boot: Boot): Promise<Redactor> {
  const secrets = await collectSecrets({ env: boot.env, credentialEnvVars: [], configuredEnvVars: boot.config?.value.secrets ?? [], storedCredentials: async () => [] });
  return new Redactor(secrets);
}
