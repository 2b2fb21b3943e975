const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };

/** `7d` → 604800. The config schema has already checked the form. */
export function parseDuration(text: string): number {
  const match = /^([0-9]+)(ms|s|m|h|d)$/.exec(text);
  if (!match?.[1] || !match[2]) throw new Error(`not a duration: ${text}`);
  return Number(match[1]) * (UNIT_SECONDS[match[2]] ?? 1);
}

/** 604800 → `7d`, 5400 → `1h30m`, for messages people read. */
export function formatDuration(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)}ms`;
  const parts: string[] = [];
  let rest = Math.round(seconds);
  for (const [unit, size] of [
    ["d", 86400],
    ["h", 3600],
    ["m", 60],
    ["s", 1],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
    if (parts.length === 2) break;
  }
  return parts.join("") || "0s";
}
