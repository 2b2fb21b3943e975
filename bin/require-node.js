// The Node.js version check every entry point runs first: the CLI (bin/schemawatch.js), `npm test`
// and `npm run bench` (their `pre` scripts). On an older Node.js the rest of schemawatch fails in ways
// that say nothing about the cause (vitest's reporter crashes after minutes, the CLI cannot load), so
// this file stays plain JavaScript that even old versions parse and imports nothing but Node's own.
import { existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const REQUIRED_MAJOR = 24;

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** How to get Node.js 24: the checkout's own script when there is one, else the usual places. */
function howToInstall() {
  const script = join(root, "scripts", "node24.sh");
  if (existsSync(script)) {
    const shown = relative(process.cwd(), script) || script;
    return `. ${shown.startsWith("..") ? script : shown} (puts Node.js ${REQUIRED_MAJOR} on PATH in this shell), then run the command again`;
  }
  return `your version manager (nvm install ${REQUIRED_MAJOR}) or from https://nodejs.org/`;
}

/** The one line to print when `version` (e.g. `20.20.2`) is too old, or undefined when it will do. */
export function nodeVersionProblem(version) {
  const major = Number(String(version).split(".")[0]);
  if (Number.isInteger(major) && major >= REQUIRED_MAJOR) return undefined;
  return `schemawatch needs Node.js ${REQUIRED_MAJOR} or newer; this is ${version}. Install it with ${howToInstall()}.`;
}

// Run as a script (`node bin/require-node.js`): exit 1 with the line when the version is too old.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problem = nodeVersionProblem(process.versions.node);
  if (problem) {
    process.stderr.write(problem + "\n");
    process.exit(1);
  }
}
