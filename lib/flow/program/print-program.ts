/**
 * A program in fugue's text syntax, the way `stretto flow-show` prints a flow's run and
 * `stretto flow-diff` compares two runs line by line: four spaces per block, one statement
 * a line, and `pure(…)` last. The standard program prints as STANDARD_PROGRAM_TEXT.
 */
import { rustDisplay } from "../decide/rust-format.js";
import type { Addr, BinaryOp, DistCall, Expr, Program, Stmt } from "./program-types.js";

const SYMBOLS: Record<BinaryOp, string> = {
  or: "||",
  and: "&&",
  eq: "==",
  ne: "!=",
  lt: "<",
  le: "<=",
  gt: ">",
  ge: ">=",
  add: "+",
  sub: "-",
  mul: "*",
  div: "/",
};

/** How tightly each operator binds; a looser operand is parenthesized. */
const PRECEDENCE: Record<BinaryOp, number> = { or: 1, and: 2, eq: 3, ne: 3, lt: 3, le: 3, gt: 3, ge: 3, add: 4, sub: 4, mul: 5, div: 5 };
const UNARY = 6;
const ATOM = 7;

function precedence(e: Expr): number {
  if (e.op in PRECEDENCE) return PRECEDENCE[e.op as BinaryOp];
  return e.op === "neg" || e.op === "not" ? UNARY : ATOM;
}

function f64(x: number): string {
  const s = rustDisplay(x);
  // A float literal keeps its point, so it reads back as a float.
  return /[.a-z]/.test(s) ? s : `${s}.0`;
}

export function printExpr(e: Expr): string {
  const wrap = (child: Expr, min: number) => (precedence(child) < min ? `(${printExpr(child)})` : printExpr(child));
  switch (e.op) {
    case "f64":
      return f64(e.value);
    case "int":
      return String(e.value);
    case "bool":
      return String(e.value);
    case "var":
      return e.name;
    case "array":
      return `[${e.items.map(printExpr).join(", ")}]`;
    case "index":
      return `${wrap(e.array, ATOM)}[${printExpr(e.index)}]`;
    case "len":
      return `${wrap(e.array, ATOM)}.len()`;
    case "neg":
      return `-${wrap(e.arg, UNARY)}`;
    case "not":
      return `!${wrap(e.arg, UNARY)}`;
    case "call":
      return `${e.func}(${e.args.map(printExpr).join(", ")})`;
    default: {
      // Left-associative: an operand as loose as the operator is parenthesized on the right.
      const p = PRECEDENCE[e.op];
      return `${wrap(e.lhs, p)} ${SYMBOLS[e.op]} ${wrap(e.rhs, p + 1)}`;
    }
  }
}

function printAddr(a: Addr): string {
  return a.index === undefined ? `addr!(${JSON.stringify(a.name)})` : `addr!(${JSON.stringify(a.name)}, ${printExpr(a.index)})`;
}

function printDist(d: DistCall): string {
  return `${d.name}(${d.args.map(printExpr).join(", ")})`;
}

function printStmts(body: readonly Stmt[], depth: number, out: string[]): void {
  const pad = "    ".repeat(depth);
  for (const s of body) {
    switch (s.stmt) {
      case "sample":
        out.push(`${pad}let ${s.var} <- sample(${printAddr(s.addr)}, ${printDist(s.dist)});`);
        break;
      case "let":
        out.push(`${pad}let ${s.var} = ${printExpr(s.value)};`);
        break;
      case "assign":
        out.push(`${pad}${s.var} = ${printExpr(s.value)};`);
        break;
      case "observe":
        out.push(`${pad}observe(${printAddr(s.addr)}, ${printDist(s.dist)}, ${printExpr(s.value)});`);
        break;
      case "factor":
        out.push(`${pad}factor(${printExpr(s.logw)});`);
        break;
      case "for":
        out.push(`${pad}for ${s.var} in ${printExpr(s.start)}..${printExpr(s.end)} {`);
        printStmts(s.body, depth + 1, out);
        out.push(`${pad}}`);
        break;
      case "if":
        out.push(`${pad}if ${printExpr(s.cond)} {`);
        printStmts(s.then, depth + 1, out);
        if (s.else !== undefined && s.else.length > 0) {
          out.push(`${pad}} else {`);
          printStmts(s.else, depth + 1, out);
        }
        out.push(`${pad}}`);
        break;
      case "break":
        out.push(`${pad}break;`);
        break;
    }
  }
}

/** The program's text, without a final newline. */
export function printProgram(program: Program): string {
  const out: string[] = [];
  printStmts(program.body, 0, out);
  out.push(`pure(${printExpr(program.ret)})`);
  return out.join("\n");
}
