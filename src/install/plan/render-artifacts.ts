import { requireLazily } from "../../kernel/fs/require.js";
import type { AgentPlacement, CommandPlacement } from "../../runtimes/kit/install-types.js";
import { renderFrontmatter } from "../pack/frontmatter.js";
import type { MarkdownArtifact } from "../pack/load-pack.js";
import { renderTemplate, type TemplateVars } from "../pack/template.js";

/** A generated file: where it goes (relative to the root) and its text. */
export interface RenderedFile {
  rel: string;
  text: string;
}

/** What a command's `$ARGUMENTS` becomes where the runtime has no such placeholder. */
const ARGUMENTS_IN_PROSE = "the user's request";

export function artifactBody(artifact: MarkdownArtifact, vars: TemplateVars): string {
  const body = artifact.bodyTemplate ? renderTemplate(artifact.bodyTemplate, vars) : artifact.body;
  return body.replace(/^(\r?\n)+/, "");
}

/** A canonical command in a runtime's own format (`extras`: the frontmatter keys beyond the canonical ones that pass to the runtime). */
export function renderCommand(command: MarkdownArtifact, placement: CommandPlacement, vars: TemplateVars, extras: Record<string, unknown> = {}): RenderedFile {
  const body = artifactBody(command, vars);
  const description = String(command.frontmatter.description);
  const front = command.frontmatter;
  switch (placement.format) {
    case "markdown":
      return {
        rel: `${placement.dir}/${command.name}.md`,
        text:
          renderFrontmatter({ description, "argument-hint": front["argument-hint"], "allowed-tools": front["allowed-tools"], model: front.model, ...extras }) +
          withArguments(body, placement.arguments ?? "$ARGUMENTS"),
      };
    case "gemini-toml":
      return { rel: `${placement.dir}/${command.name}.toml`, text: geminiCommandToml(description, withArguments(body, placement.arguments ?? "{{args}}")) };
    case "skill":
      return { rel: `${placement.dir}/${command.name}/SKILL.md`, text: renderFrontmatter({ name: command.name, description }) + withArguments(body, ARGUMENTS_IN_PROSE) };
    case "workflow":
      return { rel: `${placement.dir}/${command.name}.md`, text: `# ${description}\n\n${withArguments(body, placement.arguments ?? ARGUMENTS_IN_PROSE)}` };
  }
}

/** A canonical agent definition in a runtime's own format (`extras`: the frontmatter keys beyond the canonical ones that pass to the runtime). */
export function renderAgent(agent: MarkdownArtifact, placement: AgentPlacement, vars: TemplateVars, extras: Record<string, unknown> = {}): RenderedFile {
  const body = artifactBody(agent, vars);
  const front = agent.frontmatter;
  const description = String(front.description);
  const tools = Array.isArray(front.tools) ? (front.tools as string[]).join(", ") : (front.tools as string | undefined);
  switch (placement.format) {
    case "markdown":
      return { rel: `${placement.dir}/${agent.name}.md`, text: renderFrontmatter({ name: agent.name, description, tools, model: front.model, ...extras }) + body };
    case "opencode":
      // OpenCode's `tools` is a map of its own tool names, so the canonical list is not carried over.
      return { rel: `${placement.dir}/${agent.name}.md`, text: renderFrontmatter({ description, mode: "subagent", model: front.model, ...extras }) + body };
    case "gemini":
      // Gemini's `tools` must list its own tool names (a string is refused): the agent gets its defaults.
      return { rel: `${placement.dir}/${agent.name}.md`, text: renderFrontmatter({ name: agent.name, description, model: front.model, ...extras }) + body };
    case "copilot": {
      const list = tools === undefined ? undefined : tools.split(",").map((tool) => tool.trim()).filter(Boolean);
      return { rel: `${placement.dir}/${agent.name}.agent.md`, text: renderFrontmatter({ name: agent.name, description, tools: list }) + body };
    }
  }
}

/** Hermes's category file: what the pack's skills are about. */
export function renderSkillCategory(dir: string, pack: { name: string; description: string }): RenderedFile {
  const description = pack.description || `Skills installed by the ${pack.name} pack.`;
  return { rel: `${dir}/${pack.name}/DESCRIPTION.md`, text: renderFrontmatter({ description }) + `Skills from the ${pack.name} pack, installed by bosun.\n` };
}

/** A Copilot hooks file holding one hook. */
export function renderCopilotHook(dir: string, hook: { name: string; event: string; command: string; timeout: number }): RenderedFile {
  const body = { version: 1, hooks: { [hook.event]: [{ type: "command", bash: hook.command, timeoutSec: hook.timeout }] } };
  return { rel: `${dir}/${hook.name}.json`, text: JSON.stringify(body, null, 2) + "\n" };
}


function withArguments(body: string, placeholder: string): string {
  return placeholder === "$ARGUMENTS" ? body : body.replaceAll("$ARGUMENTS", placeholder);
}

/** Gemini's TOML command: `description` and a multi-line `prompt` (literal when it can be). */
function geminiCommandToml(description: string, prompt: string): string {
  const toml = requireLazily("smol-toml") as typeof import("smol-toml");
  const head = toml.stringify({ description });
  // A literal multi-line string keeps the prompt readable; it cannot hold ''' or most control characters.
  // eslint-disable-next-line no-control-regex
  if (!prompt.includes("'''") && !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(prompt) && !prompt.endsWith("'")) {
    return `${head}prompt = '''\n${prompt}'''\n`;
  }
  return head + toml.stringify({ prompt });
}
