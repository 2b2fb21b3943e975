import { rename, rm, writeFile } from "node:fs/promises";

/**
 * Writes `text` to `path` whole or not at all: into a temporary file beside it, then renamed over it,
 * so a signal that ends the process mid-write never leaves a partial file where `--out` pointed.
 */
export async function writeWhole(path: string, text: string): Promise<void> {
  const partial = `${path}.partial-${process.pid}`;
  try {
    await writeFile(partial, text);
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    // The user named the target: the message does too, not the temporary file.
    if (error instanceof Error) error.message = error.message.replaceAll(partial, path);
    throw error;
  }
}
