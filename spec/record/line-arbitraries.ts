/**
 * Generated log lines for the recorder's property specs: JSON values as a line (with
 * spaces around and any line end), and such lines with one byte changed, dropped or
 * doubled (mostly invalid, sometimes still valid).
 */
import fc from "fast-check";

export function jsonLines(spaces: readonly string[], maxDepth: number): fc.Arbitrary<Buffer> {
  const space = fc.constantFrom(...spaces);
  return fc
    .tuple(space, fc.jsonValue({ maxDepth }), space, fc.constantFrom("", "\n", "\r\n", "\r"))
    .map(([a, v, b, end]) => Buffer.from(`${a}${JSON.stringify(v)}${b}${end}`));
}

export function mutatedLines(lines: fc.Arbitrary<Buffer>): fc.Arbitrary<Buffer> {
  return fc.tuple(lines, fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom("set", "drop", "double")).map(([b, at, byte, how]) => {
    if (b.length === 0) return b;
    const i = at % b.length;
    if (how === "set") return Buffer.concat([b.subarray(0, i), Buffer.from([byte]), b.subarray(i + 1)]);
    if (how === "drop") return Buffer.concat([b.subarray(0, i), b.subarray(i + 1)]);
    return Buffer.concat([b.subarray(0, i + 1), b.subarray(i)]);
  });
}
