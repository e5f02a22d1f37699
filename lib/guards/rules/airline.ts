/**
 * τ²-bench airline's policy as guards (docs/guards.md, "Airline"), in a fixed order: a refusal
 * cites the rules it broke in this order, so the order is part of the text agents and logs see. The
 * policy's clock is fixed at 2024-05-15T15:00:00. Every rule is enforced except
 * `airline.confirmed`, which is only logged.
 */
import { compareCodePoints, field, type Json, type JsonObject } from "../../trace/json.js";
import type { FactView } from "../facts.js";
import { AIRLINE_TODAY, withinADay } from "../policy-time.js";
import { arg, list, text, type GuardedCall, type Rule } from "../rule.js";
import { fail, pass, unknown } from "../verdict.js";
import { confirmation } from "../word-list.js";

export const AIRLINE_WRITES: readonly string[] = [
  "book_reservation",
  "cancel_reservation",
  "update_reservation_baggages",
  "update_reservation_flights",
  "update_reservation_passengers",
];

/** The writes that name a reservation. */
export const RESERVATION_WRITES: readonly string[] = AIRLINE_WRITES.filter((t) => t !== "book_reservation");

const NOT_LOOKED_UP = "the reservation was not looked up";

/** The reservation the call names, as last returned. */
function reservationOf(f: FactView, c: GuardedCall): JsonObject | undefined {
  const id = arg(c, "reservation_id");
  return id === undefined ? undefined : f.reservation(id);
}

/** Whether a flight of the reservation is dated before the policy's today. */
function flown(r: JsonObject): boolean {
  return list(field(r, "flights")).some((fl) => {
    const date = text(fl, "date");
    return date !== undefined && compareCodePoints(date, AIRLINE_TODAY) < 0;
  });
}

const ownReservation: Rule = {
  id: "airline.own_reservation",
  policy: "Only the user's own reservations can be changed.",
  tools: RESERVATION_WRITES,
  enforced: true,
  check: (f, c) => {
    const r = reservationOf(f, c);
    if (r === undefined) return unknown(NOT_LOOKED_UP);
    const owner = text(r, "user_id");
    if (owner === undefined) return unknown("the reservation has no user");
    if (f.user(owner) !== undefined) return pass();
    if (!f.anyUser()) return unknown(`reservation of ${owner}; no user looked up`);
    return fail(`the reservation belongs to ${owner}, not the user`);
  },
};

const cancelAllowed: Rule = {
  id: "airline.cancel_allowed",
  policy:
    "Cancel only if booked within 24 hours, cancelled by the airline, in business class, or insured; never once a flight was flown.",
  tools: ["cancel_reservation"],
  enforced: true,
  check: (f, c) => {
    const r = reservationOf(f, c);
    if (r === undefined) return unknown(NOT_LOOKED_UP);
    if (flown(r)) return fail("a flight of the reservation was already flown");
    const createdAt = text(r, "created_at");
    const recent = createdAt !== undefined && withinADay(createdAt);
    const business = field(r, "cabin") === "business";
    const insured = field(r, "insurance") === "yes";
    const cancelledByAirline = list(field(r, "flights")).some(
      (fl) => f.flightStatus(text(fl, "flight_number") ?? "", text(fl, "date") ?? "") === "cancelled",
    );
    if (recent || business || insured || cancelledByAirline) return pass();
    return fail(
      "not booked within 24 hours, not business, not insured, and no flight known to be cancelled by the airline (check get_flight_status if one was)",
    );
  },
};

/** A reservation's or a call's flights as sorted (number, date) keys, a missing part as null. */
function flightKeys(flights: Json | undefined): string[] {
  return list(flights)
    .map((fl) => JSON.stringify([text(fl, "flight_number") ?? null, text(fl, "date") ?? null]))
    .sort(compareCodePoints);
}

const basicEconomyFlights: Rule = {
  id: "airline.basic_economy_flights",
  policy: "A basic economy reservation's flights cannot change; its cabin can, and once upgraded its flights can too.",
  tools: ["update_reservation_flights"],
  enforced: true,
  check: (f, c) => {
    const r = reservationOf(f, c);
    if (r === undefined) return unknown(NOT_LOOKED_UP);
    // The reservation as last returned: τ²-bench's task 32 upgrades a basic economy
    // reservation, then changes its flights.
    if (field(r, "cabin") !== "basic_economy") return pass();
    const old = flightKeys(field(r, "flights"));
    const next = flightKeys(field(c.arguments, "flights"));
    const same = old.length === next.length && old.every((k, i) => k === next[i]);
    return same ? pass() : fail("the reservation is basic economy, whose flights cannot change (its cabin can)");
  },
};

const notFlown: Rule = {
  id: "airline.not_flown",
  policy: "The cabin cannot change once a flight was flown.",
  tools: ["update_reservation_flights"],
  enforced: true,
  check: (f, c) => {
    const r = reservationOf(f, c);
    if (r === undefined) return unknown(NOT_LOOKED_UP);
    const cabin = arg(c, "cabin");
    const changesCabin = cabin !== undefined && text(r, "cabin") !== cabin;
    return changesCabin && flown(r) ? fail("a flight was already flown, so the cabin cannot change") : pass();
  },
};

/** An integer (serde's `as_i64`; a JSON reader cannot tell `2.0` from `2`, so both count). */
function integer(v: Json | undefined): number | undefined {
  return typeof v === "number" && Number.isInteger(v) ? v : undefined;
}

const keepBags: Rule = {
  id: "airline.keep_bags",
  policy: "Checked bags can be added, not removed.",
  tools: ["update_reservation_baggages"],
  enforced: true,
  check: (f, c) => {
    const r = reservationOf(f, c);
    if (r === undefined) return unknown(NOT_LOOKED_UP);
    const before = integer(field(r, "total_baggages"));
    const after = integer(field(c.arguments, "total_baggages"));
    if (before === undefined || after === undefined) return unknown("bag counts unknown");
    return after < before ? fail(`that removes bags (${before} to ${after})`) : pass();
  },
};

/** The length of a list; undefined when it is no list. */
function length(v: Json | undefined): number | undefined {
  return Array.isArray(v) ? v.length : undefined;
}

const samePassengerCount: Rule = {
  id: "airline.same_passenger_count",
  policy: "The number of passengers cannot change.",
  tools: ["update_reservation_passengers"],
  enforced: true,
  check: (f, c) => {
    const r = reservationOf(f, c);
    if (r === undefined) return unknown(NOT_LOOKED_UP);
    const before = length(field(r, "passengers"));
    const after = length(field(c.arguments, "passengers"));
    if (before === undefined || after === undefined) return unknown("passenger counts unknown");
    return after !== before ? fail(`that changes the number of passengers (${before} to ${after})`) : pass();
  },
};

/** How many payments of each kind one booking may have, checked in this order. */
const PAYMENT_LIMITS: readonly (readonly [prefix: string, kind: string, max: number])[] = [
  ["certificate", "certificate", 1],
  ["credit_card", "credit card", 1],
  ["gift_card", "gift card", 3],
];

const bookingLimits: Rule = {
  id: "airline.booking_limits",
  policy: "At most five passengers; at most one certificate, one credit card and three gift cards.",
  tools: ["book_reservation"],
  enforced: true,
  check: (_f, c) => {
    const passengers = length(field(c.arguments, "passengers")) ?? 0;
    if (passengers > 5) return fail(`${passengers} passengers is more than five`);
    const counts = new Map<string, number>();
    for (const p of list(field(c.arguments, "payment_methods"))) {
      const id = text(p, "payment_id") ?? "";
      const kind = PAYMENT_LIMITS.find(([prefix]) => id.startsWith(prefix))?.[1] ?? "other";
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
    const over = PAYMENT_LIMITS.find(([, kind, max]) => (counts.get(kind) ?? 0) > max);
    return over === undefined ? pass() : fail(`more than ${over[2]} ${over[1]} payment(s)`);
  },
};

/** The payment ids a call pays with: `payment_methods[].payment_id`, then `payment_id`. */
function paymentIds(c: GuardedCall): string[] {
  const ids: string[] = [];
  for (const p of list(field(c.arguments, "payment_methods"))) {
    const id = text(p, "payment_id");
    if (id !== undefined) ids.push(id);
  }
  const single = arg(c, "payment_id");
  if (single !== undefined) ids.push(single);
  return ids;
}

const ownPayment: Rule = {
  id: "airline.own_payment",
  policy: "Payment methods must already be in the user's profile.",
  tools: ["book_reservation", "update_reservation_baggages", "update_reservation_flights"],
  enforced: true,
  check: (f, c) => {
    const ids = paymentIds(c);
    if (ids.length === 0) return unknown("no payment method");
    if (!f.anyUser()) return unknown("the user's details were not looked up");
    const stranger = ids.find((id) => !f.anyUserHasMethod(id));
    return stranger === undefined ? pass() : fail(`${stranger} is not in the user's profile`);
  },
};

const compensation: Rule = {
  id: "airline.compensation",
  policy: "Compensate only silver or gold members, insured travellers, or business travellers.",
  tools: ["send_certificate"],
  enforced: true,
  check: (f, c) => {
    const userId = arg(c, "user_id");
    const user = userId === undefined ? undefined : f.user(userId);
    if (userId === undefined || user === undefined) return unknown("the user was not looked up");
    const membership = field(user, "membership");
    if (membership === "silver" || membership === "gold") return pass();
    if (f.coveredReservationOf(userId)) return pass();
    if (!f.anyReservation()) return unknown("no reservation looked up");
    return fail("a regular member without insurance or business class is not compensated");
  },
};

const confirmed: Rule = {
  id: "airline.confirmed",
  policy: "Obtain the customer's explicit confirmation (yes) before any change to a booking.",
  tools: AIRLINE_WRITES,
  // Logged only, as `retail.confirmed`.
  enforced: false,
  check: (f) => confirmation(f.lastSaid()),
};

export const AIRLINE_RULES: readonly Rule[] = [
  ownReservation,
  cancelAllowed,
  basicEconomyFlights,
  notFlown,
  keepBags,
  samePassengerCount,
  bookingLimits,
  ownPayment,
  compensation,
  confirmed,
];
