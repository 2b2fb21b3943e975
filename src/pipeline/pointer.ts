/** A compiled JSON Pointer (RFC 6901), for reading one value out of a parsed document. */
export type Pointer = readonly string[];

export function compilePointer(pointer: string): Pointer {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}

export function readPointer(document: unknown, pointer: Pointer): unknown {
  let node = document;
  for (const token of pointer) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (typeof node === "object" && node !== null) {
      if (!Object.hasOwn(node, token)) return undefined;
      node = (node as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return node;
}
