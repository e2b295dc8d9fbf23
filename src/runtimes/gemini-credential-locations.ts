import { join, resolve } from "node:path";
import type { Env } from "../kernel/paths.js";
import { atDefaultPlaces } from "./kit/adapter.js";
import { GEMINI_ENCRYPTED_STORE_FILE, GEMINI_ENV_KEYS, GEMINI_OAUTH_FILE, geminiDotenvCandidates } from "./gemini-auth.js";
import { geminiDir } from "./gemini-settings.js";
import type { CredentialLocations, DetectionContext } from "./kit/types.js";

/**
 * Where Gemini CLI 0.61 finds credentials. Its own files and `.env` candidates come from the
 * functions its sign-in check uses; Google's Application Default Credentials are what its
 * Google auth library (bundled in 0.61) reads for Vertex AI and Compute Engine: the file named by
 * GOOGLE_APPLICATION_CREDENTIALS (or its lower-case form, relative to the working folder, no `~`),
 * then `$HOME/.config/gcloud/application_default_credentials.json` (CLOUDSDK_CONFIG is not read
 * for it).
 */

/** The variables the Google auth library takes a credentials file's path from, in its order. */
export const GOOGLE_CREDENTIALS_FILE_ENV = ["GOOGLE_APPLICATION_CREDENTIALS", "google_application_credentials"] as const;

/** The well-known ADC file under HOME, which `gcloud auth application-default login` writes. */
export function googleAdcFile(env: Env): string | undefined {
  return env.HOME ? join(env.HOME, ".config", "gcloud", "application_default_credentials.json") : undefined;
}

/**
 * Gemini's cached Google login and encrypted store (in `$GEMINI_CLI_HOME/.gemini` and
 * `~/.gemini`), every `.env` it may load a key from (trusted or not, walking up from the working
 * folder), Google's ADC files, and its key variables. Settings files only choose the auth type.
 */
export function geminiCredentialLocations(ctx: Pick<DetectionContext, "env" | "home" | "cwd">): CredentialLocations {
  const places = [ctx, atDefaultPlaces(ctx)];
  const named = GOOGLE_CREDENTIALS_FILE_ENV.flatMap((name) => (ctx.env[name] ? [resolve(ctx.cwd, ctx.env[name])] : []));
  return {
    files: [
      ...places.flatMap((place) => [join(geminiDir(place), GEMINI_OAUTH_FILE), join(geminiDir(place), GEMINI_ENCRYPTED_STORE_FILE)]),
      ...places.flatMap((place) => geminiDotenvCandidates(place, true, false)),
      ...places.flatMap((place) => googleAdcFile(place.env) ?? []),
      ...named,
    ],
    folders: [],
    env: [...GEMINI_ENV_KEYS],
  };
}
