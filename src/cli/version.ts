import { readFileSync } from "node:fs";

/** The version in package.json (two folders up from both src/cli and dist/cli). */
export function packageVersion(): string {
  const url = new URL("../../package.json", import.meta.url);
  return (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
}
