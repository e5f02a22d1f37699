import assert from "node:assert/strict";
import { BatchAnswers } from "../../lib/bus/batch-answers.js";
import { checkLine, type WireMessage } from "../../lib/protocol/line-check.js";

const messages = (line: string): readonly WireMessage[] => {
  const c = checkLine(Buffer.from(`${line}\n`));
  assert.ok(c.ok);
  return c.messages;
};
const BATCH = '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":"b","method":"tools/call"}]';

describe("one batch, one answer", () => {
  it("joins the proxy's and the server's answers in the batch's order, once all are in", () => {
    const batches = new BatchAnswers();
    batches.hostBatch(messages(BATCH));
    const sent: string[] = [];
    const send = (b: Buffer) => sent.push(b.toString());
    assert.equal(batches.fromProxy(Buffer.from('{"jsonrpc":"2.0","id":"b","result":{"refused":true}}\n'), send), true);
    assert.deepEqual(sent, [], "held until the server's part comes");
    assert.equal(batches.fromServer(Buffer.from('[{"jsonrpc":"2.0","id":1,"result":{}}]\n'), send), true);
    assert.deepEqual(sent, ['[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":"b","result":{"refused":true}}]\n']);
    assert.equal(batches.pending, false);
  });

  it("passes the server's own line when the proxy answered none of the batch", () => {
    const batches = new BatchAnswers();
    batches.hostBatch(messages(BATCH));
    const sent: Buffer[] = [];
    const line = Buffer.from('[ {"id":"b","jsonrpc":"2.0","result":{}} , {"id":1,"jsonrpc":"2.0","result":{}} ]\n');
    assert.equal(batches.fromServer(line, (b) => sent.push(b)), true);
    assert.equal(sent.length, 1);
    assert.equal(sent[0], line, "the very buffer, byte for byte");
  });

  it("lets other lines by, keeps a server array's stray elements, and joins an id-less error to the batch", () => {
    const batches = new BatchAnswers();
    const sent: string[] = [];
    const send = (b: Buffer) => sent.push(b.toString());
    assert.equal(batches.fromProxy(Buffer.from('{"jsonrpc":"2.0","id":9,"result":{}}\n'), send), false, "no batch: not held");
    batches.hostBatch(messages(BATCH));
    assert.equal(batches.fromServer(Buffer.from('{"jsonrpc":"2.0","id":7,"result":{}}\n'), send), false);
    batches.fromProxy(Buffer.from('{"jsonrpc":"2.0","id":"b","result":{}}\n'), send);
    assert.equal(batches.fromServer(Buffer.from('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"no batches"}}\n'), send), true);
    assert.deepEqual(sent, ['[{"jsonrpc":"2.0","id":"b","result":{}},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"no batches"}}]\n']);
  });

  it("sends what it holds when the session ends", () => {
    const batches = new BatchAnswers();
    batches.hostBatch(messages(BATCH));
    const sent: string[] = [];
    batches.fromProxy(Buffer.from('{"jsonrpc":"2.0","id":"b","result":{}}\n'), (b) => sent.push(b.toString()));
    batches.flush((b) => sent.push(b.toString()));
    assert.deepEqual(sent, ['[{"jsonrpc":"2.0","id":"b","result":{}}]\n']);
  });
});
