import assert from "node:assert/strict";
import { TestScheduler } from "rxjs/testing";
import { Observable, delay, finalize, map, of, timer } from "rxjs";
import { decide } from "../../lib/bus/runtime/decide.js";
import { wholeLines } from "../../lib/bus/runtime/whole-lines.js";
import { frame, type Frame } from "../../lib/bus/frame.js";

const f = (text: string): Frame => frame("client", 0, Buffer.from(`${text}\n`));
const texts = (o: Observable<Frame>) => o.pipe(map((x) => x.bytes.toString().trim()));

describe("plugin operators (marble tests)", () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = new TestScheduler((actual, expected) => assert.deepEqual(actual, expected));
  });

  it("a slow decision holds back the lines behind it: order is kept", () => {
    scheduler.run(({ cold, expectObservable }) => {
      const frames = { a: f("a"), b: f("b"), c: f("c") };
      const source = cold("a-b-c|", frames);
      // `a` takes 10 frames of virtual time to decide; `b` and `c` are instant.
      const out = source.pipe(decide((x) => (x.bytes.toString() === "a\n" ? of([x]).pipe(delay(10)) : [x])));
      expectObservable(texts(out)).toBe("----------(abc|)", { a: "a", b: "b", c: "c" });
    });
  });

  it("withholds, passes and replaces frames as the decision says", () => {
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold("a-b-c-------|", { a: f("a"), b: f("b"), c: f("c") });
      const out = source.pipe(
        decide((x) => {
          const t = x.bytes.toString().trim();
          if (t === "b") return [];
          if (t === "c") return [frame("proxy", 0, Buffer.from("C\n")), frame("proxy", 0, Buffer.from("C2\n"))];
          return [x];
        }),
      );
      expectObservable(texts(out)).toBe("a---(cd)----|", { a: "a", c: "C", d: "C2" });
    });
  });

  it("passes the same frame object on, so its bytes stay exact", () => {
    const a = frame("client", 0, Buffer.from([0xff, 0x0a]));
    const seen: Frame[] = [];
    of(a).pipe(decide((x) => [x])).subscribe((x) => seen.push(x));
    assert.equal(seen[0], a);
  });

  it("when the host goes away, a pending decision is unsubscribed and nothing more is emitted", () => {
    let tornDown = 0;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const slow = cold("----------(x|)", { x: [] as Frame[] });
      const source = cold("a|", { a: f("a") });
      const out = source.pipe(
        decide(() =>
          slow.pipe(
            finalize(() => {
              tornDown++;
            }),
          ),
        ),
      );
      expectObservable(texts(out), "^---!").toBe("----");
      expectSubscriptions(slow.subscriptions).toBe("^---!");
    });
    assert.equal(tornDown, 1, "the pending decision was torn down");
  });

  it("a decision on a timer is cancelled with its subscription (no leaked timers)", () => {
    let fired = false;
    const sub = of(f("a"))
      .pipe(decide(() => timer(50).pipe(map(() => ((fired = true), [] as Frame[])))))
      .subscribe();
    sub.unsubscribe();
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        assert.equal(fired, false);
        resolve();
      }, 80),
    );
  });

  it("joins the pieces of a long line before plugins see it", () => {
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold("abc|", {
        a: frame("server", 1, Buffer.from("he"), false),
        b: frame("server", 2, Buffer.from("llo"), false),
        c: frame("server", 3, Buffer.from("!\n"), true),
      });
      expectObservable(texts(source.pipe(wholeLines()))).toBe("--x|", { x: "hello!" });
    });
  });
});
