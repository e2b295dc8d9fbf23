import type { AgentLanguageModel } from "./agent-language-model.js";

/** Where a model is reached, for the error that says it cannot be. */
export interface ModelEndpoint {
  providerID: string;
  /** The base URL; absent when the provider package's default is used. */
  url?: string;
  /** Where that URL was set (see `ModelTarget.baseURLOrigin`). */
  origin?: string;
}

/** A model call that failed before the model answered, with the endpoint it was calling. */
export class ModelEndpointError extends Error {
  override name = "ModelEndpointError";
  constructor(
    readonly endpoint: ModelEndpoint,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/**
 * The model, with every failure of a streamed call to it (refused, unknown host, HTTP error…)
 * carrying the endpoint, so the line that reports it can name the provider, the URL and where
 * that URL was set. Aborts pass through untouched: the SDK and the loop recognise them by name.
 */
export async function withEndpoint(model: AgentLanguageModel, endpoint: ModelEndpoint): Promise<AgentLanguageModel> {
  const { wrapLanguageModel } = await import("ai");
  const isAbort = (error: unknown) => error instanceof Error && (error.name === "AbortError" || error.name === "ResponseAborted");
  return wrapLanguageModel({
    model: model as Parameters<typeof wrapLanguageModel>[0]["model"],
    middleware: {
      specificationVersion: "v3",
      async wrapStream({ doStream }) {
        try {
          return await doStream();
        } catch (error) {
          throw isAbort(error) ? error : new ModelEndpointError(endpoint, error);
        }
      },
    },
  });
}
