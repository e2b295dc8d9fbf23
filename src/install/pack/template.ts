import { PackError } from "./pack-error.js";

/** Values a template can use, by dotted name (`agents.codex.model`, `runtime.id`…). */
export type TemplateVars = ReadonlyMap<string, string | boolean>;

type Node = { text: string } | { name: string } | { section: string; inverted: boolean; children: Node[] };

/** A parsed template: `{{name}}`, `{{#name}}…{{/name}}` (shown when true or non-empty), `{{^name}}…{{/name}}` (the opposite). */
export interface Template {
  nodes: Node[];
  names: string[];
}

const TAG = /\{\{\s*([#^/]?)\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** Parses a template; unbalanced sections and unknown names are a `PackError` naming the file and line. */
export function compileTemplate(text: string, file: string, isKnown: (name: string) => boolean, firstLine = 1): Template {
  const root: Node[] = [];
  const stack: { name: string; children: Node[]; line: number }[] = [];
  const names = new Set<string>();
  let children = root;
  let last = 0;
  const lineAt = (offset: number) => firstLine + countNewlines(text, offset);
  for (const match of text.matchAll(TAG)) {
    const [tag, kind, name] = match as unknown as [string, string, string];
    const offset = match.index;
    if (offset > last) children.push({ text: text.slice(last, offset) });
    last = offset + tag.length;
    if (!isKnown(name)) throw new PackError(file, `unknown template value {{${name}}}`, lineAt(offset));
    names.add(name);
    if (kind === "") children.push({ name });
    else if (kind === "/") {
      const open = stack.pop();
      if (!open || open.name !== name) throw new PackError(file, `{{/${name}}} closes no open {{#${name}}} section`, lineAt(offset));
      children = stack.length > 0 ? (stack[stack.length - 1] as { children: Node[] }).children : root;
    } else {
      const node = { section: name, inverted: kind === "^", children: [] as Node[] };
      children.push(node);
      stack.push({ name, children: node.children, line: lineAt(offset) });
      children = node.children;
    }
  }
  const open = stack.pop();
  if (open) throw new PackError(file, `{{#${open.name}}} is never closed`, open.line);
  if (last < text.length) children.push({ text: text.slice(last) });
  return { nodes: root, names: [...names] };
}

export function renderTemplate(template: Template, vars: TemplateVars): string {
  return renderNodes(template.nodes, vars);
}

function renderNodes(nodes: Node[], vars: TemplateVars): string {
  let out = "";
  for (const node of nodes) {
    if ("text" in node) out += node.text;
    else if ("name" in node) out += String(vars.get(node.name) ?? "");
    else {
      const value = vars.get(node.section);
      const truthy = value === true || (typeof value === "string" && value !== "");
      if (truthy !== node.inverted) out += renderNodes(node.children, vars);
    }
  }
  return out;
}

function countNewlines(text: string, end: number): number {
  let count = 0;
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) count++;
  return count;
}
