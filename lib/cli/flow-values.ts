/**
 * The values of the `--flow*` and `--oracle` options, checked as clap checks them. Kept
 * apart from the flow itself so the command line stays light: a passive start loads none
 * of the flow's modules.
 */
import { InvalidValue } from "./args.js";
import type { OracleKind } from "../oracle/oracle.js";
import type { DeciderName } from "../flow/decide/types.js";

const DECIDERS: readonly DeciderName[] = ["arbiter", "habit", "reach"];
const ORACLES: readonly OracleKind[] = ["jev", "replay", "mock"];

/** `--flow-decider`'s values, as clap checks them. */
export function deciderName(raw: string): DeciderName {
  if ((DECIDERS as readonly string[]).includes(raw)) return raw as DeciderName;
  throw new InvalidValue(`[possible values: ${DECIDERS.join(", ")}]`);
}

/** `--oracle`'s values. */
export function oracleKind(raw: string): OracleKind {
  if ((ORACLES as readonly string[]).includes(raw)) return raw as OracleKind;
  throw new InvalidValue(`[possible values: ${ORACLES.join(", ")}]`);
}

/** An f64, as clap parses one. */
export function float(raw: string): number {
  const n = Number(raw);
  if (raw.trim() === "" || Number.isNaN(n)) throw new InvalidValue("invalid float literal");
  return n;
}

/** A u64 kept whole (`--flow-explore-seed`). */
export function unsigned64(raw: string): bigint {
  if (!/^\+?\d+$/.test(raw)) throw new InvalidValue("invalid digit found in string");
  const n = BigInt(raw.replace(/^\+/, ""));
  if (n >= 1n << 64n) throw new InvalidValue("number too large to fit in target type");
  return n;
}

/** `--flow-surprise off|NATS`: no gate, or the gate's threshold in nats (finite, above 0). */
export function surprise(raw: string): number | "off" {
  if (raw === "off") return "off";
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || !(n > 0)) throw new InvalidValue(`expected \`off\`, or a threshold in nats above 0, not \`${raw}\``);
  return n;
}

