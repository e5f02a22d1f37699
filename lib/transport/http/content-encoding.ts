import { pipeline, type Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

/**
 * The body as the server meant it. The client asks for no compression (no `Accept-Encoding`:
 * the messages are small, and an event stream must not wait on a compressor), but a server
 * that compresses anyway is decoded rather than handed to the host as bytes it cannot read.
 */
export function decoded(body: Readable, encoding: string | string[] | undefined): Readable {
  const name = (Array.isArray(encoding) ? encoding[0] : encoding)?.trim().toLowerCase();
  if (name === undefined || name === "" || name === "identity") return body;
  const decoder =
    name === "gzip" || name === "x-gzip" ? createGunzip() : name === "deflate" ? createInflate() : name === "br" ? createBrotliDecompress() : undefined;
  if (decoder === undefined) return body;
  return pipeline(body, decoder, () => {});
}
