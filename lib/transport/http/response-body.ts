import type { Readable } from "node:stream";
import type { Opened } from "./client.js";
import { errorText } from "./errors.js";
import type { HostOutput } from "./host-output.js";
import type { SseReader } from "./sse.js";

/** A whole body, once it has all arrived. */
export function readAll(body: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    body.on("data", (c: Buffer) => chunks.push(c));
    body.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    body.once("error", reject);
  });
}

/** Reads a body that does not matter to its end, so its connection is free again. */
export function drain(opened: Opened): Promise<void> {
  return readAll(opened.body).then(
    () => {},
    () => {},
  );
}

/**
 * Feeds a stream's body to `reader` as it comes, waiting while the host has no room;
 * resolves with the read error, if any.
 */
export async function readEvents(opened: Opened, reader: SseReader, host: HostOutput): Promise<string | undefined> {
  let failure: string | undefined;
  try {
    for await (const chunk of opened.body) {
      reader.feed(chunk as Buffer);
      if (host.full) await host.room();
    }
  } catch (err) {
    failure = errorText(err);
  }
  reader.end();
  return failure;
}
