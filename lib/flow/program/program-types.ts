/**
 * The fugue program format, version 1 (docs/flows.md, "Flow files"): the AST in exactly its JSON
 * form, so a program read from a flow file is written back unchanged. Statements are
 * tagged by `stmt`, expressions by `op`.
 */

/** The program format version this build reads. */
export const PROGRAM_FORMAT_VERSION = 1;
/** How deeply a program may nest, counted as the depth of its JSON form. */
export const MAX_NESTING = 100;

export const BINARY_OPS = ["add", "sub", "mul", "div", "eq", "ne", "lt", "le", "gt", "ge", "and", "or"] as const;
export type BinaryOp = (typeof BINARY_OPS)[number];

export type Expr =
  | { op: "f64"; value: number }
  | { op: "int"; value: number }
  | { op: "bool"; value: boolean }
  | { op: "var"; name: string }
  | { op: "array"; items: Expr[] }
  | { op: "index"; array: Expr; index: Expr }
  | { op: "len"; array: Expr }
  | { op: "neg"; arg: Expr }
  | { op: "not"; arg: Expr }
  | { op: BinaryOp; lhs: Expr; rhs: Expr }
  | { op: "call"; func: string; args: Expr[] };

export type BinaryExpr = Extract<Expr, { lhs: Expr }>;

/** A site address: `addr!("decide", i)` is `{name: "decide", index: i}` and prints `decide#0`. */
export interface Addr {
  name: string;
  index?: Expr;
}

/** A distribution call: a registered name and its argument expressions. */
export interface DistCall {
  name: string;
  args: Expr[];
}

export type Stmt =
  | { stmt: "sample"; var: string; addr: Addr; dist: DistCall }
  | { stmt: "let"; var: string; value: Expr }
  | { stmt: "assign"; var: string; value: Expr }
  | { stmt: "observe"; addr: Addr; dist: DistCall; value: Expr }
  | { stmt: "factor"; logw: Expr }
  | { stmt: "for"; var: string; start: Expr; end: Expr; body: Stmt[] }
  | { stmt: "if"; cond: Expr; then: Stmt[]; else?: Stmt[] }
  | { stmt: "break" };

export interface Program {
  fugue_program: number;
  body: Stmt[];
  ret: Expr;
}

export function isBinary(e: Expr): e is BinaryExpr {
  return (BINARY_OPS as readonly string[]).includes(e.op);
}
