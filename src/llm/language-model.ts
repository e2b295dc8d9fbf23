import { UserError } from "../kernel/errors.js";
import { withEndpoint } from "./model-endpoint.js";
import type { ModelTarget } from "./model-target.js";
import type { AgentLanguageModel } from "./agent-language-model.js";

/** The provider needs a credential and none was found. Names where one would come from. */
export class MissingCredentialError extends UserError {
  override name = "MissingCredentialError";
  constructor(
    readonly providerID: string,
    readonly envVars: string[],
  ) {
    const env = envVars.length === 0 ? "" : `set ${envVars.join(" or ")} or `;
    super(`provider ${providerID} has no credential: ${env}run bosun auth set ${providerID}`);
  }
}

/** The target cannot be used as given (e.g. an openai-compatible provider without a base URL). */
export class ModelTargetError extends UserError {
  override name = "ModelTargetError";
  constructor(
    readonly providerID: string,
    readonly modelID: string,
    readonly problem: string,
  ) {
    super(`model ${providerID}/${modelID}: ${problem}`);
  }
}

/**
 * An AI SDK v6 language model for a target, built by the provider package the target names. The
 * packages are imported here, on first use, so commands other than `bosun run` never load them.
 *
 * OpenAI goes through the chat-completions API (`.chat()`), not the Responses API that a bare
 * `openai(id)` would pick: chat completions is the protocol every OpenAI-compatible server also
 * speaks, it keeps no conversation state on the server (bosun's session file is the whole
 * history), and one request shape means one code path to test.
 */
export async function languageModelFor(target: ModelTarget): Promise<AgentLanguageModel> {
  const apiKey = target.apiKey && target.apiKey.length > 0 ? target.apiKey : undefined;
  const needsKey = target.npm !== "@ai-sdk/openai-compatible" || target.credentialHint !== null;
  if (needsKey && !apiKey) throw new MissingCredentialError(target.providerID, target.credentialHint?.env ?? []);
  return withEndpoint(await providerModel(target, apiKey), {
    providerID: target.providerID,
    ...(target.baseURL ? { url: target.baseURL } : {}),
    ...(target.baseURLOrigin ? { origin: target.baseURLOrigin } : {}),
  });
}

async function providerModel(target: ModelTarget, apiKey: string | undefined): Promise<AgentLanguageModel> {
  const headers = target.headers;
  switch (target.npm) {
    case "@ai-sdk/openai": {
      const { createOpenAI } = await import("@ai-sdk/openai");
      return createOpenAI({ apiKey, headers, ...baseURL(target) }).chat(target.modelID);
    }
    case "@ai-sdk/openai-compatible": {
      if (!target.baseURL) throw new ModelTargetError(target.providerID, target.modelID, "an openai-compatible provider needs a base URL (e.g. http://127.0.0.1:11434/v1)");
      const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
      const provider = createOpenAICompatible({ name: target.providerID, baseURL: target.baseURL, apiKey, headers, includeUsage: true });
      return provider.chatModel(target.modelID);
    }
    case "@ai-sdk/anthropic": {
      const { createAnthropic } = await import("@ai-sdk/anthropic");
      return createAnthropic({ apiKey, headers, ...baseURL(target) })(target.modelID);
    }
    case "@ai-sdk/google": {
      const { createGoogleGenerativeAI } = await import("@ai-sdk/google");
      return createGoogleGenerativeAI({ apiKey, headers, ...baseURL(target) })(target.modelID);
    }
    default:
      throw new ModelTargetError(target.providerID, target.modelID, `unsupported provider package ${JSON.stringify(target.npm)}`);
  }
}

function baseURL(target: ModelTarget): { baseURL?: string } {
  return target.baseURL ? { baseURL: target.baseURL } : {};
}
