import type { Command } from "commander";
import { displayPath } from "../kernel/paths.js";
import { UserError } from "../kernel/errors.js";
import { bootForCommand } from "./boot.js";
import { columns, styler, writeJson, writeLine, type Output } from "./output.js";

export function registerPolicy(program: Command, output: Output): void {
  const policy = program.command("policy").description("the allow/deny statements of bosun.json");
  policy
    .command("check")
    .description("the decision for ACTION on RESOURCE (e.g. provider.use openai) and the statement that decided it")
    .argument("<action>", "provider.use or model.use")
    .argument("<resource>", "a provider id, or provider/model for model.use")
    .option("--json", "print the decision as JSON")
    .action(async (action: string, resource: string, options: { json?: boolean }) => {
      const { POLICY_ACTIONS, policyFromConfig } = await import("../catalog/policy.js");
      if (!(POLICY_ACTIONS as readonly string[]).includes(action)) {
        throw new UserError(`unknown action ${JSON.stringify(action)}; use ${POLICY_ACTIONS.join(" or ")}`);
      }
      const boot = await bootForCommand(output);
      const rules = policyFromConfig(boot.config?.layers ?? []);
      const decision = rules.evaluate(action, resource, "allow");
      const statement = decision.statement;
      if (options.json) {
        writeJson(output, {
          action,
          resource,
          effect: decision.effect,
          statement: statement
            ? { action: statement.action, effect: statement.effect, resource: statement.resource, file: statement.origin?.file ?? null, index: statement.origin?.index ?? null, scope: statement.origin?.scope ?? null }
            : null,
        });
        return;
      }
      const style = styler(output);
      const effect = decision.effect === "allow" ? style("green", "allow") : style("red", "deny");
      writeLine(output.stdout, `${effect}  ${action} ${resource}`);
      if (!statement) {
        const count = rules.statements.length;
        writeLine(output.stdout, `  no statement matches (${count} in force), so the default applies: allow`);
        return;
      }
      const where = statement.origin ? `${displayPath(statement.origin.file, boot.paths.home)} policy[${statement.origin.index}] (${statement.origin.scope})` : "";
      for (const line of columns([
        ["decided by", `${statement.effect} ${statement.action} ${statement.resource}`],
        ["written in", where],
      ])) {
        writeLine(output.stdout, line);
      }
    });
}
