import assert from "node:assert/strict";
import { AIRLINE_NOW, AIRLINE_TODAY, withinADay } from "../../lib/guards/index.js";
import { daysFromCivil, secondsOf } from "../../lib/guards/policy-time.js";

describe("guards: the airline policy's 24 hours", () => {
  it("is always 2024-05-15T15:00:00", () => {
    assert.equal(AIRLINE_NOW, "2024-05-15T15:00:00");
    assert.equal(AIRLINE_TODAY, "2024-05-15");
  });

  it("counts a booking at 16:00 the day before as within a day, one at 14:00 not", () => {
    assert.equal(withinADay("2024-05-14T16:00:00", AIRLINE_NOW), true);
    assert.equal(withinADay("2024-05-14T14:00:00", AIRLINE_NOW), false);
  });

  it("crosses months", () => {
    assert.equal(withinADay("2024-04-30T23:00:00", "2024-05-01T10:00:00"), true);
    assert.equal(withinADay("2024-02-28T23:00:00", "2024-03-01T10:00:00"), false, "2024 is a leap year");
    assert.equal(withinADay("2023-02-28T23:00:00", "2023-03-01T10:00:00"), true);
    assert.equal(withinADay("2023-12-31T20:00:00", "2024-01-01T08:00:00"), true);
  });

  it("includes both ends and excludes the future", () => {
    assert.equal(withinADay("2024-05-14T15:00:00"), true, "exactly 24 h");
    assert.equal(withinADay("2024-05-14T14:59:59"), false);
    assert.equal(withinADay(AIRLINE_NOW), true, "now itself");
    assert.equal(withinADay("2024-05-15T15:00:01"), false, "after now");
  });

  it("reads seconds as optional, fractional (truncated), and as 0 when they do not parse", () => {
    assert.equal(withinADay("2024-05-14T15:00"), true);
    assert.equal(withinADay("2024-05-14T14:59:59.9"), false);
    assert.equal(withinADay("2024-05-15T15:00:00.5"), true, "54000.5 s into the day is truncated to now");
    assert.equal(withinADay("2024-05-15T15:00:30"), false, "30 s in the future");
    assert.equal(withinADay("2024-05-15T15:00:30Z"), true, "`30Z` is not a number, so 0 s");
  });

  it("is false for what is not a time", () => {
    for (const t of ["soon", "", "2024-05-15", "2024-05-15T", "2024-05T15:00", "x-05-15T15:00", "2024-05-15T15"]) {
      assert.equal(withinADay(t), false, t);
    }
  });

  it("counts days like the proleptic Gregorian calendar", () => {
    assert.equal(daysFromCivil(1970, 1, 1), 0);
    assert.equal(daysFromCivil(2000, 3, 1) - daysFromCivil(2000, 2, 28), 2);
    assert.equal(daysFromCivil(1900, 3, 1) - daysFromCivil(1900, 2, 28), 1);
    assert.equal(secondsOf("1970-01-02T00:00:00"), 86_400);
    assert.equal(secondsOf("1970-01-01T01:30"), 5_400);
    assert.equal(secondsOf("nope"), undefined);
  });
});
