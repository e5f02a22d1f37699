/**
 * The pieces of a review's text that have rules of their own: a program printed as fugue
 * text (the standard one exactly as published), numbers rounded from their exact value with
 * a tie to even, counts with thousands separated.
 */
import assert from "node:assert/strict";
import { parseProgram } from "../../lib/flow/program/parse-program.js";
import { printProgram } from "../../lib/flow/program/print-program.js";
import { STANDARD_PROGRAM_TEXT, standardProgram } from "../../lib/flow/program/standard-program.js";
import { fixed, percent, thousands } from "../../lib/review/numbers.js";

describe("a review's text", () => {
  it("prints the standard program as its published text", () => {
    assert.equal(printProgram(standardProgram()), STANDARD_PROGRAM_TEXT);
  });

  it("prints other programs' statements and expressions, parenthesized only where needed", () => {
    const v = (name: string) => ({ op: "var", name });
    const program = parseProgram({
      fugue_program: 1,
      body: [
        { stmt: "let", var: "x", value: { op: "mul", lhs: { op: "add", lhs: v("a"), rhs: v("b") }, rhs: { op: "f64", value: 2 } } },
        { stmt: "let", var: "y", value: { op: "sub", lhs: v("a"), rhs: { op: "sub", lhs: v("b"), rhs: { op: "int", value: 1 } } } },
        { stmt: "if", cond: { op: "not", arg: { op: "and", lhs: v("p"), rhs: v("q") } }, then: [{ stmt: "factor", logw: { op: "neg", arg: v("x") } }], else: [{ stmt: "break" }] },
        { stmt: "observe", addr: { name: "seen" }, dist: { name: "Outcome", args: [v("x")] }, value: { op: "bool", value: true } },
      ],
      ret: { op: "index", array: { op: "array", items: [v("x"), v("y")] }, index: { op: "int", value: 0 } },
    });
    assert.equal(
      printProgram(program),
      [
        "let x = (a + b) * 2.0;",
        "let y = a - (b - 1);",
        "if !(p && q) {",
        "    factor(-x);",
        "} else {",
        "    break;",
        "}",
        'observe(addr!("seen"), Outcome(x), true);',
        "pure([x, y][0])",
      ].join("\n"),
    );
  });

  it("rounds a tie to even from the exact value, and the rest to nearest", () => {
    assert.equal(fixed(0.125, 2), "0.12");
    assert.equal(fixed(0.375, 2), "0.38");
    assert.equal(fixed(2.5, 0), "2");
    assert.equal(fixed(3.5, 0), "4");
    assert.equal(fixed(-0.0625, 3), "-0.062");
    // 0.145 is a little below 0.145 as a double: not a tie.
    assert.equal(fixed(0.145, 2), (0.145).toFixed(2));
    assert.equal(fixed(2 / 3, 3), "0.667");
    assert.equal(percent(0.125), "12%");
    assert.equal(percent(1 / 3), "33%");
  });

  it("separates thousands", () => {
    assert.deepEqual([0, 999, 1000, 4513, 1234567].map(thousands), ["0", "999", "1,000", "4,513", "1,234,567"]);
  });
});
