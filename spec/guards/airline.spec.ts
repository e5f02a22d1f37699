import assert from "node:assert/strict";
import type { Json, JsonObject } from "../../lib/trace/json.js";
import type { EpisodeEvent } from "../../lib/trace/episode-types.js";
import { PASS, call, decide, fails, lookedUp, refusal, result, unknown, user, verdictOf } from "./helpers.js";

const CANCEL = { reservation_id: "R1" };

describe("guards: airline", () => {
  describe("cancellation eligibility", () => {
    const reservation = (created: string, cabin: string, insurance: string): JsonObject => ({
      reservation_id: "R1",
      user_id: "u1",
      cabin,
      insurance,
      created_at: created,
      flights: [{ flight_number: "HAT1", date: "2024-05-20" }],
    });
    const withR = (r: JsonObject): EpisodeEvent[] => [
      call("1", "get_user_details", { user_id: "u1" }),
      result("1", "get_user_details", { user_id: "u1", membership: "regular" }),
      call("2", "get_reservation_details", { reservation_id: "R1" }),
      result("2", "get_reservation_details", r),
      user("Yes, cancel it"),
    ];
    it("passes a booking made this morning", () => {
      const d = decide("airline", withR(reservation("2024-05-15T09:00:00", "economy", "no")), "cancel_reservation", CANCEL);
      assert.equal(d.refused, false, d.reason);
      assert.deepEqual(d.verdicts.map((v) => v.verdict), [PASS, PASS, PASS]);
    });
    it("passes an old business booking", () => {
      assert.equal(refusal("airline", withR(reservation("2024-05-01T09:00:00", "business", "no")), "cancel_reservation", CANCEL), undefined);
    });
    it("passes an old insured booking", () => {
      assert.equal(refusal("airline", withR(reservation("2024-05-01T09:00:00", "economy", "yes")), "cancel_reservation", CANCEL), undefined);
    });
    it("refuses an old, uninsured economy booking", () => {
      assert.equal(
        refusal("airline", withR(reservation("2024-05-01T09:00:00", "economy", "no")), "cancel_reservation", CANCEL),
        "not booked within 24 hours, not business, not insured, and no flight known to be cancelled by the airline " +
          "(check get_flight_status if one was) (policy check airline.cancel_allowed)",
      );
    });
    it("refuses an unparseable booking time as not recent", () => {
      assert.deepEqual(
        verdictOf("airline", withR(reservation("yesterday", "economy", "no")), "cancel_reservation", CANCEL, "airline.cancel_allowed").verdict,
        "fail",
      );
    });
  });

  describe("basic economy", () => {
    const reservation = (cabin: string): JsonObject => ({
      reservation_id: "R1",
      user_id: "u1",
      cabin,
      flights: [{ flight_number: "HAT1", date: "2024-05-17" }],
    });
    const update = (cabin: string, flight: string): Json => ({
      reservation_id: "R1",
      cabin,
      payment_id: "credit_card_1",
      flights: [{ flight_number: flight, date: "2024-05-17" }],
    });
    const base = (): EpisodeEvent[] => [
      call("1", "get_user_details", { user_id: "u1" }),
      result("1", "get_user_details", { user_id: "u1", payment_methods: { credit_card_1: {} } }),
      call("2", "get_reservation_details", { reservation_id: "R1" }),
      result("2", "get_reservation_details", reservation("basic_economy")),
      user("Yes, go ahead."),
    ];
    it("lets the cabin alone change", () => {
      assert.equal(refusal("airline", base(), "update_reservation_flights", update("economy", "HAT1")), undefined);
    });
    it("after the upgrade, lets the flights change (the reservation as last returned)", () => {
      const events = [
        ...base(),
        call("3", "update_reservation_flights", update("economy", "HAT1")),
        result("3", "update_reservation_flights", reservation("economy")),
        user("Yes, now change the flight."),
      ];
      assert.equal(refusal("airline", events, "update_reservation_flights", update("economy", "HAT2")), undefined);
    });
    it("without the upgrade, refuses a flight change", () => {
      assert.equal(
        refusal("airline", base(), "update_reservation_flights", update("basic_economy", "HAT2")),
        "the reservation is basic economy, whose flights cannot change (its cabin can) (policy check airline.basic_economy_flights)",
      );
    });
    it("compares flights as a set of (number, date), in any order", () => {
      const two = lookedUp("r", "get_reservation_details", {
        reservation_id: "R1",
        user_id: "u1",
        cabin: "basic_economy",
        flights: [
          { flight_number: "HAT1", date: "2024-05-17", price: 100 },
          { flight_number: "HAT2", date: "2024-05-18" },
        ],
      });
      const flights = (fs: Json[]): Json => ({ reservation_id: "R1", cabin: "basic_economy", flights: fs });
      const rule = "airline.basic_economy_flights";
      assert.deepEqual(
        verdictOf("airline", two, "update_reservation_flights", flights([{ date: "2024-05-18", flight_number: "HAT2" }, { flight_number: "HAT1", date: "2024-05-17" }]), rule),
        PASS,
      );
      assert.deepEqual(
        verdictOf("airline", two, "update_reservation_flights", flights([{ flight_number: "HAT1", date: "2024-05-17" }]), rule).verdict,
        "fail",
      );
      assert.deepEqual(
        verdictOf("airline", two, "update_reservation_flights", flights([{ flight_number: "HAT1", date: "2024-05-17" }, { flight_number: "HAT1", date: "2024-05-17" }]), rule).verdict,
        "fail",
      );
    });
  });

  describe("what each rule cannot tell, and what fails", () => {
    const reservation = (r: JsonObject) => lookedUp("r", "get_reservation_details", r);
    const person = (u: JsonObject) => lookedUp("u", "get_user_details", u);
    const r1 = (extra: JsonObject = {}): JsonObject => ({
      reservation_id: "R1",
      user_id: "u1",
      cabin: "economy",
      flights: [{ flight_number: "HAT1", date: "2024-05-20" }],
      passengers: [{ first_name: "Ann" }],
      total_baggages: 2,
      ...extra,
    });
    const flown: JsonObject = { flights: [{ flight_number: "HAT1", date: "2024-05-01" }] };
    const v = (events: EpisodeEvent[], tool: string, args: Json, rule: string) => verdictOf("airline", events, tool, args, rule);

    it("six rules do not know a reservation that was not looked up", () => {
      const pairs: Array<[string, string]> = [
        ["airline.own_reservation", "cancel_reservation"],
        ["airline.cancel_allowed", "cancel_reservation"],
        ["airline.basic_economy_flights", "update_reservation_flights"],
        ["airline.not_flown", "update_reservation_flights"],
        ["airline.keep_bags", "update_reservation_baggages"],
        ["airline.same_passenger_count", "update_reservation_passengers"],
      ];
      for (const [rule, tool] of pairs) {
        assert.deepEqual(v([], tool, CANCEL, rule), unknown("the reservation was not looked up"), rule);
      }
    });

    it("airline.own_reservation", () => {
      assert.deepEqual(v(reservation(r1()), "cancel_reservation", CANCEL, "airline.own_reservation"), unknown("reservation of u1; no user looked up"));
      assert.deepEqual(v([...person({ user_id: "u2" }), ...reservation(r1())], "cancel_reservation", CANCEL, "airline.own_reservation"), fails("the reservation belongs to u1, not the user"));
      assert.deepEqual(v([...person({ user_id: "u2" }), ...reservation({ reservation_id: "R1" })], "cancel_reservation", CANCEL, "airline.own_reservation"), unknown("the reservation has no user"));
      assert.deepEqual(v([...person({ user_id: "u1" }), ...reservation(r1())], "update_reservation_passengers", CANCEL, "airline.own_reservation"), PASS);
    });

    it("flown flights: no cancellation, no cabin change", () => {
      assert.deepEqual(v(reservation(r1(flown)), "cancel_reservation", CANCEL, "airline.cancel_allowed"), fails("a flight of the reservation was already flown"));
      assert.deepEqual(
        v(reservation(r1({ ...flown, cabin: "business" })), "cancel_reservation", CANCEL, "airline.cancel_allowed"),
        fails("a flight of the reservation was already flown"),
        "flown beats business",
      );
      assert.deepEqual(
        v(reservation(r1(flown)), "update_reservation_flights", { reservation_id: "R1", cabin: "business" }, "airline.not_flown"),
        fails("a flight was already flown, so the cabin cannot change"),
      );
      assert.deepEqual(v(reservation(r1(flown)), "update_reservation_flights", { reservation_id: "R1", cabin: "economy" }, "airline.not_flown"), PASS, "same cabin");
      assert.deepEqual(v(reservation(r1(flown)), "update_reservation_flights", { reservation_id: "R1" }, "airline.not_flown"), PASS, "no cabin given");
      assert.deepEqual(v(reservation(r1()), "update_reservation_flights", { reservation_id: "R1", cabin: "business" }, "airline.not_flown"), PASS, "nothing flown");
      const today = r1({ flights: [{ flight_number: "HAT1", date: "2024-05-15" }] });
      assert.deepEqual(v(reservation(today), "update_reservation_flights", { reservation_id: "R1", cabin: "business" }, "airline.not_flown"), PASS, "today is not yet flown");
    });

    it("a flight the airline cancelled lets the reservation go", () => {
      const status = [call("s", "get_flight_status", { flight_number: "HAT1", date: "2024-05-20" }), result("s", "get_flight_status", "cancelled")];
      const old = r1({ created_at: "2024-05-01T09:00:00" });
      assert.deepEqual(v([...reservation(old), ...status], "cancel_reservation", CANCEL, "airline.cancel_allowed"), PASS);
      const delayed = [call("s", "get_flight_status", { flight_number: "HAT1", date: "2024-05-20" }), result("s", "get_flight_status", "delayed")];
      assert.deepEqual(v([...reservation(old), ...delayed], "cancel_reservation", CANCEL, "airline.cancel_allowed").verdict, "fail");
      const otherDay = [call("s", "get_flight_status", { flight_number: "HAT1", date: "2024-05-21" }), result("s", "get_flight_status", "cancelled")];
      assert.deepEqual(v([...reservation(old), ...otherDay], "cancel_reservation", CANCEL, "airline.cancel_allowed").verdict, "fail");
      const quoted = [call("s", "get_flight_status", { flight_number: "HAT1", date: "2024-05-20" }), result("s", "get_flight_status", '"cancelled"')];
      assert.deepEqual(v([...reservation(old), ...quoted], "cancel_reservation", CANCEL, "airline.cancel_allowed"), PASS, "a JSON string reads the same");
    });

    it("airline.keep_bags", () => {
      const bags = (n: Json): Json => ({ reservation_id: "R1", total_baggages: n });
      assert.deepEqual(v(reservation(r1()), "update_reservation_baggages", bags(1), "airline.keep_bags"), fails("that removes bags (2 to 1)"));
      assert.deepEqual(v(reservation(r1()), "update_reservation_baggages", bags(3), "airline.keep_bags"), PASS);
      assert.deepEqual(v(reservation(r1()), "update_reservation_baggages", bags(2), "airline.keep_bags"), PASS);
      assert.deepEqual(v(reservation(r1()), "update_reservation_baggages", CANCEL, "airline.keep_bags"), unknown("bag counts unknown"));
      assert.deepEqual(v(reservation(r1()), "update_reservation_baggages", bags("1"), "airline.keep_bags"), unknown("bag counts unknown"));
      assert.deepEqual(v(reservation(r1()), "update_reservation_baggages", bags(1.5), "airline.keep_bags"), unknown("bag counts unknown"));
      assert.deepEqual(v(reservation(r1({ total_baggages: null })), "update_reservation_baggages", bags(1), "airline.keep_bags"), unknown("bag counts unknown"));
    });

    it("airline.same_passenger_count", () => {
      const people = (n: number): Json => ({ reservation_id: "R1", passengers: Array.from({ length: n }, () => ({ first_name: "A" })) });
      assert.deepEqual(v(reservation(r1()), "update_reservation_passengers", people(2), "airline.same_passenger_count"), fails("that changes the number of passengers (1 to 2)"));
      assert.deepEqual(v(reservation(r1()), "update_reservation_passengers", people(1), "airline.same_passenger_count"), PASS);
      assert.deepEqual(v(reservation(r1()), "update_reservation_passengers", CANCEL, "airline.same_passenger_count"), unknown("passenger counts unknown"));
    });

    it("airline.booking_limits", () => {
      const booking = (passengers: number, payments: string[]): Json => ({
        passengers: Array.from({ length: passengers }, () => ({ first_name: "A" })),
        payment_methods: payments.map((p) => ({ payment_id: p })),
      });
      const rule = "airline.booking_limits";
      assert.deepEqual(v([], "book_reservation", booking(6, []), rule), fails("6 passengers is more than five"));
      assert.deepEqual(v([], "book_reservation", booking(5, []), rule), PASS);
      assert.deepEqual(v([], "book_reservation", booking(1, ["credit_card_1", "credit_card_2"]), rule), fails("more than 1 credit card payment(s)"));
      assert.deepEqual(v([], "book_reservation", booking(1, ["certificate_1", "gift_card_1", "gift_card_2", "paypal_1"]), rule), PASS);
      assert.deepEqual(v([], "book_reservation", booking(1, ["certificate_1", "certificate_2"]), rule), fails("more than 1 certificate payment(s)"));
      assert.deepEqual(v([], "book_reservation", booking(1, ["gift_card_1", "gift_card_2", "gift_card_3", "gift_card_4"]), rule), fails("more than 3 gift card payment(s)"));
      assert.deepEqual(
        v([], "book_reservation", booking(1, ["gift_card_1", "gift_card_2", "gift_card_3", "gift_card_4", "credit_card_1", "credit_card_2"]), rule),
        fails("more than 1 credit card payment(s)"),
        "credit cards are checked before gift cards",
      );
      assert.deepEqual(v([], "book_reservation", {}, rule), PASS, "never unknown");
    });

    it("airline.own_payment", () => {
      const rule = "airline.own_payment";
      assert.deepEqual(v([], "book_reservation", { payment_methods: [] }, rule), unknown("no payment method"));
      assert.deepEqual(v([], "book_reservation", { payment_methods: [{ payment_id: "credit_card_1" }] }, rule), unknown("the user's details were not looked up"));
      const u1 = person({ user_id: "u1", payment_methods: { credit_card_1: {} } });
      assert.deepEqual(v(u1, "update_reservation_baggages", { reservation_id: "R1", payment_id: "gift_card_9" }, rule), fails("gift_card_9 is not in the user's profile"));
      assert.deepEqual(v(u1, "update_reservation_flights", { reservation_id: "R1", payment_id: "credit_card_1" }, rule), PASS);
      assert.deepEqual(
        v(u1, "book_reservation", { payment_methods: [{ payment_id: "credit_card_1" }, { payment_id: "certificate_2" }], payment_id: "gift_card_3" }, rule),
        fails("certificate_2 is not in the user's profile"),
        "the first stranger, list first",
      );
    });

    it("airline.compensation", () => {
      const send: Json = { user_id: "u1", amount: 100 };
      const rule = "airline.compensation";
      assert.deepEqual(v([], "send_certificate", send, rule), unknown("the user was not looked up"));
      assert.deepEqual(v(person({ user_id: "u1", membership: "gold" }), "send_certificate", send, rule), PASS);
      assert.deepEqual(v(person({ user_id: "u1", membership: "silver" }), "send_certificate", send, rule), PASS);
      const regular = () => person({ user_id: "u1", membership: "regular" });
      assert.deepEqual(v(regular(), "send_certificate", send, rule), unknown("no reservation looked up"));
      assert.deepEqual(v([...regular(), ...reservation(r1({ insurance: "yes" }))], "send_certificate", send, rule), PASS);
      assert.deepEqual(v([...regular(), ...reservation(r1({ cabin: "business", insurance: "no" }))], "send_certificate", send, rule), PASS);
      assert.deepEqual(
        v([...regular(), ...reservation(r1({ insurance: "no" }))], "send_certificate", send, rule),
        fails("a regular member without insurance or business class is not compensated"),
      );
      assert.deepEqual(
        v([...regular(), ...reservation(r1({ user_id: "u2", insurance: "yes" }))], "send_certificate", send, rule),
        fails("a regular member without insurance or business class is not compensated"),
        "another user's insured reservation does not count",
      );
      // The insured reservation returned again, cancelled and uninsured: latest wins.
      const changed = [...regular(), ...reservation(r1({ insurance: "yes" })), ...lookedUp("r2", "get_reservation_details", r1({ insurance: "no" }))];
      assert.deepEqual(v(changed, "send_certificate", send, rule).verdict, "fail");
    });

    it("airline.confirmed is logged, not enforced", () => {
      const d = decide("airline", [], "book_reservation", { passengers: [], payment_methods: [] });
      const confirmed = d.verdicts.find((x) => x.rule === "airline.confirmed")!;
      assert.deepEqual(confirmed, { rule: "airline.confirmed", enforced: false, verdict: fails("the customer has not confirmed anything yet") });
      assert.equal(d.refused, false);
    });
  });

  it("applies each rule only to its tools; send_certificate is not an airline write", () => {
    const rules = (tool: string) => decide("airline", [], tool, {}).verdicts.map((v) => v.rule);
    assert.deepEqual(rules("send_certificate"), ["airline.compensation"]);
    assert.deepEqual(rules("book_reservation"), ["airline.booking_limits", "airline.own_payment", "airline.confirmed"]);
    assert.deepEqual(rules("cancel_reservation"), ["airline.own_reservation", "airline.cancel_allowed", "airline.confirmed"]);
    assert.deepEqual(rules("update_reservation_baggages"), ["airline.own_reservation", "airline.keep_bags", "airline.own_payment", "airline.confirmed"]);
    assert.deepEqual(rules("update_reservation_flights"), [
      "airline.own_reservation", "airline.basic_economy_flights", "airline.not_flown", "airline.own_payment", "airline.confirmed",
    ]);
    assert.deepEqual(rules("update_reservation_passengers"), ["airline.own_reservation", "airline.same_passenger_count", "airline.confirmed"]);
    assert.deepEqual(rules("get_reservation_details"), []);
    assert.deepEqual(rules("cancel_pending_order"), [], "retail's tools are not airline's");
  });
});
