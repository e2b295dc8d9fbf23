/** A view (hono/jsx) rendered to its HTML: what a live fragment carries. */
export async function html(node: unknown): Promise<string> {
  return String(await (node as { toString(): string | Promise<string> }).toString());
}
