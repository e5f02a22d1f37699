/**
 * Ways to write a refused call (`cancel_pending_order` for a customer nobody
 * authenticated) so that some reader might still run it: odd ids, escapes, keys given
 * twice, stray whitespace and carriage returns, byte order marks, invalid UTF-8, NaN,
 * batches and nesting, huge padding. fast-check draws one line from these at a time.
 */
import fc from "fast-check";

const BAD_BYTE = "\u0000bad byte\u0000";

/** A JSON string token for `s`, with some characters written as `\uXXXX` escapes. */
const escapedString = (s: string) =>
  fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length }).map((flags) => {
    let out = '"';
    [...s].forEach((ch, i) => {
      if (flags[i]) out += `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
      else out += JSON.stringify(ch).slice(1, -1);
    });
    return `${out}"`;
  });

// Weighted so that about one line in five is clean enough to be admitted.
const ws = fc.oneof(
  { arbitrary: fc.constant(""), weight: 60 },
  { arbitrary: fc.constantFrom(" ", "\t", "  "), weight: 8 },
  { arbitrary: fc.constantFrom("\r", "\r\n"), weight: 1 },
);

const ID = fc.oneof(
  { arbitrary: fc.constantFrom<string | undefined>("1", '"x"', "1e2", "2.5", "-0", "9007199254740993", '"stretto-1"', '"\\u0061"'), weight: 3 },
  { arbitrary: fc.constantFrom<string | undefined>('{"n":21}', "[1]", "true", "false", "null", undefined, "1e400"), weight: 1 },
);

const PAD = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 3 },
  fc.constantFrom("NaN", "Infinity", "-Infinity", "1e400", '"\\ud800"', `"x${BAD_BYTE}"`, `${"[".repeat(130)}${"]".repeat(130)}`),
  fc.integer({ min: 1, max: 200_000 }).map((n) => JSON.stringify("p".repeat(n))),
);

/** Decoys a key given twice may carry: what a first-wins or last-wins reader would run instead. */
const DECOYS: Record<string, string> = {
  jsonrpc: '"2.0"',
  method: '"ping"',
  params: '{"name":"get_order_details","arguments":{"order_id":"#W7a"}}',
  name: '"get_order_details"',
  arguments: '{"order_id":"#W7a"}',
  reason: '"found it cheaper"',
  id: "99",
};

interface Shape {
  id: string | undefined;
  pad: string | undefined;
  duplicate: string | undefined;
  duplicateFirst: boolean;
  wrap: "none" | "batch" | "batch with ping" | "nested" | "cr before" | "bom" | "trailing";
}

const SHAPE: fc.Arbitrary<Shape> = fc.record({
  id: ID,
  pad: PAD,
  duplicate: fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: fc.constantFrom(...Object.keys(DECOYS)), weight: 1 }),
  duplicateFirst: fc.boolean(),
  wrap: fc.oneof(
    { arbitrary: fc.constantFrom<Shape["wrap"]>("none", "batch", "batch with ping"), weight: 3 },
    { arbitrary: fc.constantFrom<Shape["wrap"]>("nested", "cr before", "bom", "trailing"), weight: 1 },
  ),
});

/** One line (without its final `\n`) holding a `cancel_pending_order` call written some way. */
export const refusedCallLine: fc.Arbitrary<Buffer> = fc
  .record({
    shape: SHAPE,
    keys: fc.tuple(
      escapedString("jsonrpc"), escapedString("id"), escapedString("method"), escapedString("params"),
      escapedString("name"), escapedString("arguments"), escapedString("order_id"), escapedString("reason"),
    ),
    values: fc.tuple(escapedString("2.0"), escapedString("tools/call"), escapedString("cancel_pending_order"), escapedString("no longer needed")),
    space: fc.array(ws, { minLength: 40, maxLength: 40 }),
  })
  .map(({ shape, keys, values, space }) => {
    let n = 0;
    const w = () => space[n++ % space.length]!;
    const [kJsonrpc, kId, kMethod, kParams, kName, kArguments, kOrder, kReason] = keys;
    const [vJsonrpc, vMethod, vName, vReason] = values;
    const member = (key: string, plain: string, value: string) => {
      const one = `${w()}${key}${w()}:${w()}${value}${w()}`;
      if (shape.duplicate !== plain) return one;
      const decoy = `${w()}"${plain}"${w()}:${w()}${DECOYS[plain]}${w()}`;
      return shape.duplicateFirst ? `${decoy},${one}` : `${one},${decoy}`;
    };
    const object = (members: string[]) => `{${members.join(",")}}`;
    const args = object([member(kOrder, "order_id", '"#W7a"'), member(kReason, "reason", vReason)]);
    const params = object([member(kName, "name", vName), member(kArguments, "arguments", args)]);
    const members = [member(kJsonrpc, "jsonrpc", vJsonrpc)];
    if (shape.id !== undefined) members.push(member(kId, "id", shape.id));
    members.push(member(kMethod, "method", vMethod), member(kParams, "params", params));
    if (shape.pad !== undefined) members.push(`"pad":${shape.pad}`);
    const call = `${w()}${object(members)}${w()}`;
    const ping = '{"jsonrpc":"2.0","id":"p","method":"ping"}';
    const text = {
      none: call,
      batch: `[${call}]`,
      "batch with ping": `[${ping},${call}]`,
      nested: `[[${call}]]`,
      "cr before": `${ping}\r${call}`,
      bom: `\ufeff${call}`,
      trailing: `${call} x`,
    }[shape.wrap];
    const [before, after] = text.split(BAD_BYTE);
    return after === undefined ? Buffer.from(before!) : Buffer.concat([Buffer.from(before!), Buffer.from([0xc3]), Buffer.from(after)]);
  });
