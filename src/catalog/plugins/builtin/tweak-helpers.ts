import type { ProviderApi } from "../../records.js";

/** Sets a header unless one of that name (in any case) is already there: the user's value wins. */
export function setHeaderIfUnset(headers: Record<string, string>, name: string, value: string): void {
  const lower = name.toLowerCase();
  if (Object.keys(headers).some((key) => key.toLowerCase() === lower)) return;
  headers[name] = value;
}

/** The AI SDK package an endpoint uses, if any. */
export function packageOf(api: ProviderApi): string | undefined {
  return api.type === "aisdk" ? api.package : undefined;
}

/** The host of a URL, or undefined when it is not one. */
export function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
