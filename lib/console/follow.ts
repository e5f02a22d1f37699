/**
 * A growing log as an Observable of its lines: what is there from `from` on, then each line
 * as the proxy appends it. `fs.watch` says when the file changed and a slow poll covers the
 * file systems where it says nothing; each wake-up reads the bytes appended since the last
 * read and emits the whole lines among them (a partial last line waits for its newline).
 */
import { watch, type FSWatcher } from "node:fs";
import { open, stat } from "node:fs/promises";
import { Observable } from "rxjs";
import type { FollowLine } from "./api-types.js";

export interface FollowOptions {
  /** Byte offset to start at; the file's current end when undefined. */
  from?: number;
  /** The poll behind fs.watch, in ms. */
  pollMs?: number;
}

const CHUNK = 1 << 16;

export function followLog(path: string, options: FollowOptions = {}): Observable<FollowLine> {
  return new Observable<FollowLine>((subscriber) => {
    let offset = -1;
    let pending = Buffer.alloc(0);
    let reading = false;
    let again = false;
    let closed = false;
    let watcher: FSWatcher | undefined;

    const read = async (): Promise<void> => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        do {
          again = false;
          const size = (await stat(path)).size;
          if (offset < 0) offset = Math.min(options.from ?? size, size);
          if (size < offset) {
            // Truncated or replaced: start over from its beginning.
            offset = 0;
            pending = Buffer.alloc(0);
          }
          if (size === offset) continue;
          const fh = await open(path, "r");
          try {
            while (offset < size && !closed) {
              const buf = Buffer.alloc(Math.min(CHUNK, size - offset));
              const { bytesRead } = await fh.read(buf, 0, buf.length, offset);
              if (bytesRead === 0) break;
              offset += bytesRead;
              pending = pending.length === 0 ? buf.subarray(0, bytesRead) : Buffer.concat([pending, buf.subarray(0, bytesRead)]);
              let nl: number;
              while ((nl = pending.indexOf(0x0a)) >= 0) {
                const start = offset - pending.length;
                const line = pending.subarray(0, nl).toString("utf8").replace(/\r$/, "");
                pending = pending.subarray(nl + 1);
                if (line.trim() !== "" && !closed) subscriber.next({ offset: start, line });
              }
            }
          } finally {
            await fh.close();
          }
        } while (again && !closed);
      } catch (e) {
        if (!closed) subscriber.error(e);
      } finally {
        reading = false;
      }
    };

    try {
      watcher = watch(path, { persistent: false }, () => void read());
      watcher.on("error", () => undefined);
    } catch {
      // No watch on this file system: the poll alone follows it.
    }
    const timer = setInterval(() => void read(), options.pollMs ?? 1000);
    timer.unref();
    void read();
    return () => {
      closed = true;
      watcher?.close();
      clearInterval(timer);
    };
  });
}
