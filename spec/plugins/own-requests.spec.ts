import assert from "node:assert/strict";
import { OwnRequests } from "../../lib/bus/runtime/own-requests.js";
import { frame } from "../../lib/bus/frame.js";

const answerTo = (id: string | number) => ({ jsonrpc: "2.0", id, result: { ok: true } });
const f = frame("server", 0, Buffer.from("{}\n"));

describe("the proxy's own requests", () => {
  it("numbers them stretto-1, stretto-2, … from one counter, incremented before use", () => {
    const own = new OwnRequests();
    assert.equal(own.peekId(), "stretto-1");
    const a = own.open(1000);
    const b = own.open(1000);
    assert.deepEqual([a.id, b.id], ["stretto-1", "stretto-2"]);
    own.abandonAll();
  });

  it("hands each answer to its own waiter and tells its responses from the host's", async () => {
    const own = new OwnRequests();
    const a = own.open(1000);
    const b = own.open(1000);
    assert.equal(own.settle(answerTo("stretto-2"), f), true);
    assert.equal(own.settle(answerTo(2), f), false, "a host's numeric id is not ours");
    assert.equal(own.settle(answerTo("stretto-9"), f), false, "nor an id we never issued");
    own.settle(answerTo("stretto-1"), f);
    assert.equal((await a.answer).kind, "answer");
    const gotB = await b.answer;
    assert.ok(gotB.kind === "answer" && gotB.response.id === "stretto-2");
  });

  it("gives up after its patience, and a late answer is still ours (so never forwarded)", async () => {
    const own = new OwnRequests();
    const a = own.open(20);
    assert.deepEqual(await a.answer, { kind: "no-answer", why: "patience" });
    assert.equal(own.settle(answerTo("stretto-1"), f), true);
    assert.equal(own.pending, 0);
  });

  it("answers everything still waiting when the server goes away", async () => {
    const own = new OwnRequests();
    const a = own.open(60_000);
    own.abandonAll();
    assert.deepEqual(await a.answer, { kind: "no-answer", why: "server-gone" });
  });
});

describe("the proxy's own ids beside a host that uses the same shape", () => {
  it("skips an id the host has in flight, and frees its ids once answered", () => {
    const own = new OwnRequests();
    assert.equal(own.hostRequest("stretto-1"), undefined, "nothing of ours holds it");
    const a = own.open(1000);
    assert.equal(a.id, "stretto-2", "the host's stretto-1 is skipped");
    assert.equal(own.settle(answerTo("stretto-1"), f), false, "the host's answer goes to the host");
    assert.equal(own.settle(answerTo("stretto-2"), f), true);
    assert.equal(own.settle(answerTo("stretto-2"), f), false, "once answered, the id is no longer ours");
  });

  it("holds a host request reusing an own id in flight until that one is answered", async () => {
    const own = new OwnRequests();
    const a = own.open(1000);
    const wait = own.hostRequest(a.id);
    assert.ok(wait, "the host's request must wait");
    let released = false;
    void wait.then(() => (released = true));
    await Promise.resolve();
    assert.equal(released, false);
    assert.equal(own.settle(answerTo(a.id), f), true, "the first answer is ours");
    await wait;
    assert.equal(own.settle(answerTo(a.id), f), false, "the next one is the host's");
  });

  it("after patience ran out, a late answer is ours only until the host takes the id", async () => {
    const own = new OwnRequests();
    const a = own.open(10);
    await a.answer;
    assert.notEqual(own.peekId(), a.id, "a late id is not handed out again");
    assert.equal(own.hostRequest(a.id), undefined, "no own request holds the id now: the host's request goes on");
    assert.equal(own.settle(answerTo(a.id), f), false, "the host's request with that id gets the answer");
  });
});
