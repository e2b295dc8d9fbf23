/** Every string in a value passed through `redact` (object keys too): what the page and the API get. Pure. */
export function redactJson<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === "string") return redact(value) as T;
  if (Array.isArray(value)) return value.map((item) => redactJson(item, redact)) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), redactJson(item, redact)])) as T;
  return value;
}
