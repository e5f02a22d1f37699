import type { Opened } from "./client.js";
import { errorText } from "./errors.js";
import type { HostOutput } from "./host-output.js";
import type { SseReader } from "./sse.js";

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
