/**
 * What an episode has shown so far, as the rules read it, kept up to
 * date one event at a time: a decision at a session's 10,000th call costs what it costs at
 * its 10th, since nothing here is rebuilt from the history, and no question a rule asks
 * walks it.
 *
 * - what the customer said (lowercased; the rules read only the last message);
 * - each write and flight status call by id until its result comes, so that a result can be
 *   told apart as a write and a flight status can be tied to its flight (then the call is
 *   dropped: the facts of a long session grow with what it learned, not with how many calls
 *   it made; a read is not kept at all);
 * - from successful results only: the users authenticated by email or name and zip, user
 *   details, products, flight statuses, and any top-level record with an `order_id` or a
 *   `reservation_id` (latest wins, so a write that returns its order updates it);
 * - the successful writes (a known call whose tool is not `get_`/`find_`/`list_`/`search_`
 *   nor `calculate`), as far as a rule needs them: which orders had their items changed.
 *
 * Rebuilding these from the whole episode before every call would be simplest, but would
 * make each decision cost more as a session grows; these are the same facts, with indexes
 * kept alongside so that rules never iterate what grows.
 */
import { field, isObject, type Json, type JsonObject } from "../trace/json.js";
import type { EpisodeEvent, ToolCall, ToolResultEvent } from "../trace/episode-types.js";
import { parseContent, trimQuotes } from "./content.js";
import { LazyToolResult } from "../trace/lazy-result.js";

/** A call as the facts need it. */
export type CallFact = Pick<ToolCall, "id" | "name" | "arguments">;
/** A result as the facts need it. */
export type ResultFact = Pick<ToolResultEvent, "call_id" | "name" | "error" | "content">;

/** The questions a rule may ask; each costs the same however long the session has run. */
export interface FactView {
  /** The customer's last message, lowercased; undefined before they said anything. */
  lastSaid(): string | undefined;
  /** Whether anyone was authenticated by email or by name and zip code. */
  anyAuthenticated(): boolean;
  isAuthenticated(userId: string): boolean;
  /** Whether the details of an authenticated user were looked up. */
  authenticatedDetailsKnown(): boolean;
  /** Whether an authenticated user's looked-up details hold payment method `id`. */
  authenticatedHasMethod(id: string): boolean;
  /** Whether any user's details were looked up. */
  anyUser(): boolean;
  user(userId: string): JsonObject | undefined;
  /** Whether any looked-up user's details hold payment method `id`. */
  anyUserHasMethod(id: string): boolean;
  order(orderId: string): JsonObject | undefined;
  product(productId: string): JsonObject | undefined;
  reservation(reservationId: string): JsonObject | undefined;
  anyReservation(): boolean;
  /** Whether a looked-up reservation of `userId` is insured or in business class. */
  coveredReservationOf(userId: string): boolean;
  /** The status `get_flight_status` returned for the flight, if it was asked. */
  flightStatus(flightNumber: string, date: string): string | undefined;
  /**
   * Whether an earlier successful `modify_pending_order_items` or
   * `exchange_delivered_order_items` had this `order_id` (undefined: had none that is a string).
   */
  itemsChanged(orderId: string | undefined): boolean;
}

/** The tools whose writes change an order's items, which the policy allows once. */
export const ITEM_CHANGES: readonly string[] = ["modify_pending_order_items", "exchange_delivered_order_items"];

const READ_PREFIXES = ["get_", "find_", "list_", "search_"];

/** Whether a successful call of `tool` counts as a write: τ²-bench's reads are named `get_`, `find_`, `list_`, `search_`. */
export function isWriteTool(tool: string): boolean {
  if (tool === "calculate") return false;
  for (const p of READ_PREFIXES) if (tool.startsWith(p)) return false;
  return true;
}

export class Facts implements FactView {
  /** How many events (user messages, calls, results) have been applied. */
  applied = 0;
  /** How many user messages, and successful writes, there were. */
  saidCount = 0;
  writeCount = 0;

  private said: string | undefined;
  private readonly calls = new Map<string, { name: string; arguments: Json }>();
  private readonly authenticated = new Set<string>();
  private readonly users = new Map<string, JsonObject>();
  private readonly orders = new Map<string, JsonObject>();
  private readonly products = new Map<string, JsonObject>();
  private readonly reservations = new Map<string, JsonObject>();
  private readonly flights = new Map<string, string>();
  private readonly itemsChangedIds = new Set<string>();
  private itemsChangedWithoutId = false;
  /** Payment method id → how many looked-up users (authenticated ones) hold it. */
  private readonly userMethods = new Map<string, number>();
  private readonly authenticatedMethods = new Map<string, number>();
  private authenticatedKnown = 0;
  /** User id → how many of their looked-up reservations are insured or business. */
  private readonly covered = new Map<string, number>();

  /** Apply one episode event: a user message, an assistant turn's calls, or a result. */
  apply(event: EpisodeEvent): void {
    switch (event.kind) {
      case "user":
        this.addUser(event.text);
        break;
      case "assistant":
        for (const call of event.calls) this.addCall(call);
        break;
      case "tool_result":
        this.addResult(event);
        break;
    }
  }

  addUser(text: string): void {
    this.applied++;
    this.said = text.toLowerCase();
    this.saidCount++;
  }

  /** A call the agent (or the proxy) made; a reused id replaces the earlier call. */
  addCall(call: CallFact): void {
    this.applied++;
    const flight = call.name === "get_flight_status";
    // Only the result of a write or of a flight's status reads its call: any other call is not
    // kept, and only takes the place of an earlier one with its id (its result is then no write).
    if (!flight && !isWriteTool(call.name)) {
      // (Most calls are reads, and no write is in flight: no key to hash then.)
      if (this.calls.size !== 0) this.calls.delete(call.id);
      return;
    }
    // Its arguments are kept only for a result that reads them (a flight's status, a change of
    // an order's items): a write's other arguments, held while it is in flight, would outlive their use.
    const keep = flight || ITEM_CHANGES.includes(call.name);
    this.calls.set(call.id, { name: call.name, arguments: keep ? call.arguments : null });
  }

  addResult(result: ResultFact): void {
    this.applied++;
    // A call has one result (a reused id comes back as a new call first).
    const call = this.calls.size === 0 ? undefined : this.calls.get(result.call_id);
    if (call !== undefined) this.calls.delete(result.call_id);
    if (result.error) return;
    // A result read lazily gives its record as is: its text would be that record's JSON.
    const parsed = result instanceof LazyToolResult && result.reading.text === undefined ? result.reading.value : parseContent(result.content);
    switch (result.name) {
      case "find_user_id_by_email":
      case "find_user_id_by_name_zip":
        if (typeof parsed === "string") this.authenticate(trimQuotes(parsed));
        break;
      case "get_user_details": {
        const id = stringField(parsed, "user_id");
        if (id !== undefined) this.setUser(id, parsed as JsonObject);
        break;
      }
      case "get_product_details": {
        const id = stringField(parsed, "product_id");
        if (id !== undefined) this.products.set(id, parsed as JsonObject);
        break;
      }
      case "get_flight_status": {
        const n = stringField(call?.arguments, "flight_number");
        const d = stringField(call?.arguments, "date");
        if (n !== undefined && d !== undefined && typeof parsed === "string") this.flights.set(flightKey(n, d), parsed);
        break;
      }
      default:
        break;
    }
    // Records come back from lookups and from the writes that change them.
    const orderId = stringField(parsed, "order_id");
    if (orderId !== undefined) this.orders.set(orderId, parsed as JsonObject);
    const reservationId = stringField(parsed, "reservation_id");
    if (reservationId !== undefined) this.setReservation(reservationId, parsed as JsonObject);
    if (call !== undefined && isWriteTool(call.name)) this.write(call.name, call.arguments);
  }

  lastSaid(): string | undefined {
    return this.said;
  }
  anyAuthenticated(): boolean {
    return this.authenticated.size > 0;
  }
  isAuthenticated(userId: string): boolean {
    return this.authenticated.has(userId);
  }
  authenticatedDetailsKnown(): boolean {
    return this.authenticatedKnown > 0;
  }
  authenticatedHasMethod(id: string): boolean {
    return (this.authenticatedMethods.get(id) ?? 0) > 0;
  }
  anyUser(): boolean {
    return this.users.size > 0;
  }
  user(userId: string): JsonObject | undefined {
    return this.users.get(userId);
  }
  anyUserHasMethod(id: string): boolean {
    return (this.userMethods.get(id) ?? 0) > 0;
  }
  order(orderId: string): JsonObject | undefined {
    return this.orders.get(orderId);
  }
  product(productId: string): JsonObject | undefined {
    return this.products.get(productId);
  }
  reservation(reservationId: string): JsonObject | undefined {
    return this.reservations.get(reservationId);
  }
  anyReservation(): boolean {
    return this.reservations.size > 0;
  }
  coveredReservationOf(userId: string): boolean {
    return (this.covered.get(userId) ?? 0) > 0;
  }
  flightStatus(flightNumber: string, date: string): string | undefined {
    return this.flights.get(flightKey(flightNumber, date));
  }
  itemsChanged(orderId: string | undefined): boolean {
    return orderId === undefined ? this.itemsChangedWithoutId : this.itemsChangedIds.has(orderId);
  }

  /** The authenticated user ids, in no particular order (for reports and tests). */
  authenticatedUsers(): string[] {
    return [...this.authenticated];
  }

  /** How many records of each kind are held, the calls awaiting results that read them among them (for reports and tests). */
  sizes(): { calls: number; users: number; orders: number; products: number; reservations: number; flights: number } {
    return {
      calls: this.calls.size,
      users: this.users.size,
      orders: this.orders.size,
      products: this.products.size,
      reservations: this.reservations.size,
      flights: this.flights.size,
    };
  }

  private authenticate(userId: string): void {
    if (this.authenticated.has(userId)) return;
    this.authenticated.add(userId);
    const details = this.users.get(userId);
    if (details !== undefined) {
      this.authenticatedKnown++;
      count(this.authenticatedMethods, methodIds(details), 1);
    }
  }

  private setUser(userId: string, details: JsonObject): void {
    const old = this.users.get(userId);
    this.users.set(userId, details);
    if (old !== undefined) count(this.userMethods, methodIds(old), -1);
    count(this.userMethods, methodIds(details), 1);
    if (!this.authenticated.has(userId)) return;
    if (old !== undefined) count(this.authenticatedMethods, methodIds(old), -1);
    else this.authenticatedKnown++;
    count(this.authenticatedMethods, methodIds(details), 1);
  }

  private setReservation(reservationId: string, r: JsonObject): void {
    const old = this.reservations.get(reservationId);
    this.reservations.set(reservationId, r);
    if (old !== undefined) count(this.covered, coveredOwner(old), -1);
    count(this.covered, coveredOwner(r), 1);
  }

  private write(tool: string, args: Json): void {
    this.writeCount++;
    if (!ITEM_CHANGES.includes(tool)) return;
    const orderId = stringField(args, "order_id");
    if (orderId === undefined) this.itemsChangedWithoutId = true;
    else this.itemsChangedIds.add(orderId);
  }
}

/** `v[key]` when `v` is an object whose `key` is a string. */
export function stringField(v: Json | undefined, key: string): string | undefined {
  const s = field(v, key);
  return typeof s === "string" ? s : undefined;
}

function flightKey(flightNumber: string, date: string): string {
  return JSON.stringify([flightNumber, date]);
}

/** The keys of a user's `payment_methods` object. */
function methodIds(user: JsonObject): string[] {
  const methods = field(user, "payment_methods");
  return isObject(methods) ? Object.keys(methods) : [];
}

/** The owner of a reservation that is insured or in business class, as a one-key list. */
function coveredOwner(r: JsonObject): string[] {
  const owner = stringField(r, "user_id");
  if (owner === undefined) return [];
  const covered = field(r, "insurance") === "yes" || field(r, "cabin") === "business";
  return covered ? [owner] : [];
}

function count(counts: Map<string, number>, keys: readonly string[], by: 1 | -1): void {
  for (const k of keys) {
    const n = (counts.get(k) ?? 0) + by;
    if (n === 0) counts.delete(k);
    else counts.set(k, n);
  }
}
