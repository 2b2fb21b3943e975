import { SchemawatchError, messageOf } from "../errors.js";

export const DEFAULT_URL = "http://127.0.0.1:9464";

/** GETs JSON from a running monitor, with errors that name the URL. */
export async function getJson(base: string, path: string): Promise<unknown> {
  const url = new URL(path, base.endsWith("/") ? base : `${base}/`).href;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    throw new SchemawatchError(
      "HTTP_FAILED",
      `${url}: no answer from a schemawatch monitor (${messageOf(error)})`,
      {
        cause: error,
      },
    );
  }
  if (!response.ok) throw new SchemawatchError("HTTP_FAILED", `${url}: HTTP ${response.status}`);
  try {
    return await response.json();
  } catch (error) {
    throw new SchemawatchError("HTTP_FAILED", `${url}: the answer is not JSON`, { cause: error });
  }
}
