import assert from "node:assert/strict";
import {
  AIRLINE_RULES,
  GUARD_DOMAINS,
  GuardsSetupError,
  RETAIL_RULES,
  guardsFor,
  guardsSetupError,
  refusalNotice,
  refusalResponse,
  refusalResult,
  refusalText,
  rulesFor,
} from "../../lib/guards/index.js";

describe("guards: domains and the refusal", () => {
  it("only retail and airline have guards; airline includes keep_bags; telecom has none", () => {
    assert.deepEqual(GUARD_DOMAINS, ["retail", "airline"]);
    const g = guardsFor("airline");
    assert.equal(g.domain, "airline");
    assert.ok(g.rules.some((r) => r.id === "airline.keep_bags"));
    assert.equal(rulesFor("telecom"), undefined);
    assert.equal(rulesFor("Retail"), undefined, "names are exact");
  });

  it("says exactly why --guards cannot start", () => {
    assert.equal(guardsSetupError(undefined), "--guards needs --domain (retail or airline)");
    assert.equal(guardsSetupError("telecom"), "no guards for telecom");
    assert.equal(guardsSetupError("retail"), undefined);
    assert.throws(() => guardsFor(undefined), (e: unknown) => e instanceof GuardsSetupError && e.message === "--guards needs --domain (retail or airline)");
    assert.throws(() => guardsFor("telecom"), (e: unknown) => e instanceof GuardsSetupError && e.message === "no guards for telecom");
  });

  it("has every rule id in the documented order, with only the confirmed rules logged", () => {
    assert.deepEqual(
      RETAIL_RULES.map((r) => r.id),
      [
        "retail.authenticated", "retail.own_order", "retail.status_checked", "retail.pending", "retail.delivered",
        "retail.cancel_reason", "retail.items_in_order", "retail.same_product", "retail.once", "retail.own_payment",
        "retail.refund_method", "retail.confirmed",
      ],
    );
    assert.deepEqual(
      AIRLINE_RULES.map((r) => r.id),
      [
        "airline.own_reservation", "airline.cancel_allowed", "airline.basic_economy_flights", "airline.not_flown",
        "airline.keep_bags", "airline.same_passenger_count", "airline.booking_limits", "airline.own_payment",
        "airline.compensation", "airline.confirmed",
      ],
    );
    for (const r of [...RETAIL_RULES, ...AIRLINE_RULES]) assert.equal(r.enforced, !r.id.endsWith(".confirmed"), r.id);
  });

  it("gives each session its own facts", () => {
    const a = guardsFor("retail");
    const b = guardsFor("retail");
    a.facts.addUser("yes");
    assert.equal(b.facts.lastSaid(), undefined);
    assert.equal(a.guards("cancel_pending_order"), true);
    assert.equal(a.guards("get_order_details"), false);
  });

  it("words the refusal as the agent, the log and stderr see it", () => {
    const reason = "'found it cheaper' is not an accepted reason (policy check retail.cancel_reason)";
    const text =
      "Refused by the policy check, so cancel_pending_order was not run and nothing changed: " +
      "'found it cheaper' is not an accepted reason (policy check retail.cancel_reason).";
    assert.equal(refusalText("cancel_pending_order", reason), text);
    assert.deepEqual(refusalResult("cancel_pending_order", reason), { content: [{ type: "text", text }], isError: true });
    assert.equal(
      JSON.stringify(refusalResponse("4", "cancel_pending_order", reason)),
      `{"jsonrpc":"2.0","id":"4","result":{"content":[{"type":"text","text":${JSON.stringify(text)}}],"isError":true}}`,
    );
    assert.equal(JSON.stringify(refusalResponse(4, "x", "y")), '{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"Refused by the policy check, so x was not run and nothing changed: y."}],"isError":true}}');
    assert.equal(refusalNotice("cancel_pending_order", reason), `refused cancel_pending_order: ${reason}`);
  });

  it("writes verdicts as the audits' JSON", () => {
    const d = guardsFor("retail").check({ name: "cancel_pending_order", arguments: { order_id: "#W1" } });
    assert.equal(
      JSON.stringify(d.verdicts.slice(0, 3).map((v) => v.verdict)),
      '[{"verdict":"fail","reason":"the user has not been authenticated by email or by name and zip code"},' +
        '{"verdict":"unknown","reason":"the order was not looked up"},' +
        '{"verdict":"fail","reason":"the order\'s status was not checked first"}]',
    );
    const pass = guardsFor("airline").check({ name: "book_reservation", arguments: {} }).verdicts[0]!;
    assert.equal(JSON.stringify(pass.verdict), '{"verdict":"pass"}');
  });
});
