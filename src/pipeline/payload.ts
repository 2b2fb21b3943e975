// The JSON format's decoding lives with the format (src/formats/json-payload.ts); the pipeline's
// callers and tests keep importing it from here.
export { deeperThan, isStackOverflow, MAX_DOCUMENT_DEPTH, parsePayload } from "../formats/json-payload.js";
