import { access, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

/** Debian's Chromium, installed by scripts/chromium.sh; playwright-core never downloads a browser. */
export const CHROMIUM = "/usr/bin/chromium";

// Flags that work on this machine: no sandbox (root in a container), no GPU, and nothing that would
// reach outside loopback (QUIC, background networking, component updates, sync).
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A headless Chromium with a fresh profile; `close` also removes the profile. */
export async function openBrowser(viewport = { width: 1280, height: 900 }) {
  try {
    await access(CHROMIUM);
  } catch {
    throw new Error(`${CHROMIUM} is missing: run scripts/chromium.sh (Debian's chromium package)`);
  }
  const profile = await mkdtemp(join(tmpdir(), "schemawatch-chromium-"));
  // A persistent context is how playwright takes a user-data-dir of the caller's choosing.
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport,
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
