import type { ModelsSource } from "../catalog/models-dev-client.js";

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago". */
export function timeAgo(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? "" : "s"} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} hour${hours === 1 ? "" : "s"} ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/** Where the catalog's data came from, in words. */
export function describeSource(source: ModelsSource, sourceUrl: string, ageMs: number | undefined): string {
  if (source === "network") return `${sourceUrl} (downloaded just now)`;
  if (source === "cache") return `${sourceUrl} (cached ${timeAgo(ageMs ?? 0)})`;
  return "bosun's built-in list";
}
