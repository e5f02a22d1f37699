import { sortedJson } from "../../util/sorted-json.js";
import { field, stringField, type Json, type JsonObject } from "../json.js";
import { Phone } from "./telecom-phone.js";
import type { ToolReply, World } from "./world.js";

interface TelecomTool {
  name: string;
  readOnly: boolean;
  args: string[];
  description: string;
}

const t = (name: string, readOnly: boolean, args: string[], description: string): TelecomTool => ({
  name,
  readOnly,
  args,
  description,
});

/** τ²-bench telecom's tool names, as the published procedure calls them. */
const TOOLS: TelecomTool[] = [
  t("get_customer_by_phone", true, ["phone_number"], "Find a customer by a phone number of theirs."),
  t("get_customer_by_id", true, ["customer_id"], "Get a customer by id."),
  t("get_details_by_id", true, ["id"], "Details of a line, plan, device or bill, by its id."),
  t("get_bills_for_customer", true, ["customer_id"], "A customer's bills, newest first."),
  t("get_data_usage", true, ["customer_id", "line_id"], "A line's data use this cycle."),
  t("check_status_bar", true, [], "What the phone's status bar shows."),
  t("check_network_status", true, [], "The phone's network settings and connection."),
  t("check_sim_status", true, [], "The phone's SIM card."),
  t("run_speed_test", true, [], "Test the phone's mobile data speed."),
  t("can_send_mms", true, [], "Whether the messaging app can send MMS."),
  t("check_apn_settings", true, [], "The phone's APN settings."),
  t("check_network_mode_preference", true, [], "The phone's preferred network mode."),
  t("check_data_restriction_status", true, [], "Whether Data Saver is on."),
  t("check_vpn_status", true, [], "Whether a VPN is connected."),
  t("check_wifi_calling_status", true, [], "Whether Wi-Fi calling is on."),
  t("check_app_permissions", true, ["app_name"], "An app's permissions."),
  t("check_installed_apps", true, [], "The apps installed on the phone."),
  t("check_app_status", true, ["app_name"], "An app's status and permissions."),
  t("check_wifi_status", true, [], "Whether Wi-Fi is on and connected."),
  t("check_payment_request", true, ["customer_id"], "A customer's pending payment request."),
  t("toggle_airplane_mode", false, [], "Turn airplane mode on or off."),
  t("toggle_data", false, [], "Turn mobile data on or off."),
  t("toggle_roaming", false, [], "Turn data roaming on or off on the phone."),
  t("toggle_data_saver_mode", false, [], "Turn Data Saver on or off."),
  t("toggle_wifi_calling", false, [], "Turn Wi-Fi calling on or off."),
  t("disconnect_vpn", false, [], "Disconnect the VPN."),
  t("reboot_device", false, [], "Restart the phone."),
  t("reseat_sim_card", false, [], "Take the SIM card out and put it back."),
  t("reset_apn_settings", false, [], "Reset the APN settings to the carrier's."),
  t("set_network_mode_preference", false, ["mode"], "Set the preferred network mode."),
  t("enable_roaming", false, ["customer_id", "line_id"], "Enable roaming on a line."),
  t("resume_line", false, ["customer_id", "line_id"], "Resume a suspended line."),
  t("refuel_data", false, ["customer_id", "line_id", "gb_amount"], "Add data to a line for this cycle."),
  t("grant_app_permission", false, ["app_name", "permission"], "Grant an app a permission."),
  t("set_apn_settings", false, ["apn_settings"], "Set the phone's APN settings."),
  t("toggle_wifi", false, [], "Turn Wi-Fi on or off."),
  t("send_payment_request", false, ["customer_id", "bill_id"], "Ask the customer to pay a bill."),
  t("make_payment", false, ["bill_id", "payment_method_id"], "Pay a bill."),
  t("transfer_to_human_agents", false, ["summary"], "Hand the customer to a person."),
];

const CUSTOMER = {
  customer_id: "C1001",
  full_name: "John Smith",
  phone_number: "555-123-2002",
  account_status: "Active",
  line_ids: ["L1001", "L1002"],
  bill_ids: ["B1001"],
};

/** Lines, plans, devices and bills by id: what `get_details_by_id` knows. */
const RECORDS: Record<string, Json> = {
  L1001: line("L1001", "555-123-2001", "P1001", "D1001"),
  L1002: line("L1002", "555-123-2002", "P1002", "D1002"),
  P1001: { plan_id: "P1001", name: "Basic Plan", data_limit_gb: 5, price_per_month: 30.0 },
  P1002: { plan_id: "P1002", name: "Premium Plan", data_limit_gb: 15, price_per_month: 65.0 },
  D1001: { device_id: "D1001", device_type: "phone", model: "Pixel 7", activated: true },
  D1002: { device_id: "D1002", device_type: "phone", model: "iPhone 14", activated: true },
  B1001: {
    bill_id: "B1001",
    customer_id: "C1001",
    status: "Paid",
    total_due: 0.0,
    line_items: [{ description: "Premium Plan", amount: 65.0 }],
  },
};

function line(id: string, phone: string, plan: string, device: string): JsonObject {
  return {
    line_id: id,
    customer_id: "C1001",
    phone_number: phone,
    status: "Active",
    plan_id: plan,
    device_id: device,
    data_used_gb: 3.2,
    data_refueling_gb: 0.0,
    roaming_enabled: false,
  };
}

/**
 * A tiny carrier for trying `stretto-procedure`: one customer (`555-123-2002`, two lines)
 * whose phone is in airplane mode, the tools τ²-bench's telecom domain names, and a phone
 * that remembers its switches for the life of the server.
 */
export function telecomWorld(): World {
  const phone = new Phone();
  return {
    tools: () => TOOLS.map(definition),
    call(name: string, args: Json): ToolReply | undefined {
      if (!TOOLS.some((x) => x.name === name)) return undefined;
      const outcome = answer(phone, name, args);
      if ("error" in outcome) return { text: `Error: ${outcome.error}`, isError: true };
      return { text: typeof outcome.ok === "string" ? outcome.ok : sortedJson(outcome.ok), isError: false };
    },
  };
}

function definition(x: TelecomTool): JsonObject {
  const properties: JsonObject = {};
  for (const a of x.args) properties[a] = { type: a === "gb_amount" ? "number" : "string" };
  return {
    name: x.name,
    description: x.description,
    inputSchema: { type: "object", properties, required: [...x.args] },
    annotations: { readOnlyHint: x.readOnly },
  };
}

type Outcome = { ok: Json } | { error: string };

/** One call's answer; exported for unit tests. */
export function answer(phone: Phone, name: string, args: Json): Outcome {
  const arg = (key: string): string => stringField(args, key) ?? "";
  const lineOf = (): Outcome | undefined => {
    if (arg("customer_id") !== CUSTOMER.customer_id) return { error: "Customer not found" };
    if (!CUSTOMER.line_ids.includes(arg("line_id"))) return { error: "Line not found" };
    return undefined;
  };
  switch (name) {
    case "get_customer_by_phone":
      return ["555-123-2001", "555-123-2002"].includes(arg("phone_number")) ? { ok: CUSTOMER } : { error: "Customer not found" };
    case "get_customer_by_id":
      return arg("customer_id") === CUSTOMER.customer_id ? { ok: CUSTOMER } : { error: "Customer not found" };
    case "get_details_by_id": {
      const record = RECORDS[arg("id")];
      return record === undefined ? { error: `No record with id ${arg("id")}` } : { ok: record };
    }
    case "get_bills_for_customer":
      return arg("customer_id") === CUSTOMER.customer_id ? { ok: [RECORDS["B1001"]!] } : { error: "Customer not found" };
    case "get_data_usage":
      return lineOf() ?? { ok: { line_id: arg("line_id"), data_used_gb: 3.2, data_limit_gb: 15, data_refueling_gb: 0.0 } };
    case "check_status_bar":
      return { ok: phone.statusBar() };
    case "check_network_status":
      return { ok: phone.networkStatus() };
    case "check_sim_status":
      return { ok: "Your SIM card is active and working." };
    case "run_speed_test":
      return { ok: phone.speedTest() };
    case "can_send_mms":
      return { ok: phone.hasData() ? "Your messaging app can send MMS messages." : "Your messaging app cannot send MMS messages." };
    case "check_apn_settings":
      return { ok: "APN Name: internet\nMMSC URL (for picture messages): http://mms.carrier.com/mms/wapenc" };
    case "check_network_mode_preference":
      return { ok: `Network Mode Preference: ${phone.networkMode}` };
    case "check_data_restriction_status":
      return { ok: `Data Saver mode is ${phone.dataSaver ? "ON" : "OFF"}.` };
    case "check_vpn_status":
      return { ok: phone.vpn ? "VPN is connected." : "No VPN is connected." };
    case "check_wifi_calling_status":
      return { ok: `Wi-Fi Calling is currently turned ${phone.wifiCalling ? "on" : "off"}.` };
    case "check_app_permissions":
      return { ok: `App '${arg("app_name")}' has permission for: sms, storage, phone.` };
    case "check_installed_apps":
      return { ok: "Installed apps:\nmessaging\nbrowser\nsettings" };
    case "check_app_status":
      return { ok: `App '${arg("app_name")}' is installed.\nPermissions:\n- sms\n- storage\n- phone` };
    case "check_wifi_status":
      return { ok: "Wi-Fi Enabled: No" };
    case "check_payment_request":
      return { ok: "No payment request is pending." };
    case "grant_app_permission":
      return { ok: `Permission ${arg("permission")} granted to app '${arg("app_name")}'.` };
    case "set_apn_settings":
      return { ok: `APN settings were set.\n${phone.statusBar()}` };
    case "toggle_wifi":
      return { ok: `Wi-Fi toggled.\n${phone.statusBar()}` };
    case "send_payment_request":
      return arg("bill_id") === "B1001" ? { error: "The bill is already paid" } : { error: "Bill not found" };
    case "make_payment":
      return { error: "There is nothing to pay" };
    case "toggle_airplane_mode":
      phone.airplane = !phone.airplane;
      return { ok: phone.toggled("Airplane Mode", phone.airplane) };
    case "toggle_data":
      phone.mobileData = !phone.mobileData;
      return { ok: phone.toggled("Mobile Data", phone.mobileData) };
    case "toggle_roaming":
      phone.roaming = !phone.roaming;
      return { ok: phone.toggled("Data Roaming", phone.roaming) };
    case "toggle_data_saver_mode":
      phone.dataSaver = !phone.dataSaver;
      return { ok: phone.toggled("Data Saver Mode", phone.dataSaver) };
    case "toggle_wifi_calling":
      phone.wifiCalling = !phone.wifiCalling;
      return { ok: phone.toggled("Wi-Fi Calling", phone.wifiCalling) };
    case "disconnect_vpn":
      phone.vpn = false;
      return { ok: `VPN disconnected.\n${phone.statusBar()}` };
    case "reboot_device":
      return { ok: `The phone restarted.\n${phone.statusBar()}` };
    case "reseat_sim_card":
      return { ok: `The SIM card was reseated.\n${phone.statusBar()}` };
    case "reset_apn_settings":
      return { ok: `APN settings were reset.\n${phone.statusBar()}` };
    case "set_network_mode_preference": {
      const mode = arg("mode");
      if (!["4g_5g_preferred", "4g_only", "3g_only", "2g_only"].includes(mode)) return { error: `Invalid mode ${mode}` };
      phone.networkMode = mode;
      return { ok: `Network mode set to ${mode}.\n${phone.statusBar()}` };
    }
    case "enable_roaming":
      return lineOf() ?? { ok: `Roaming enabled on line ${arg("line_id")}.` };
    case "resume_line":
      return lineOf() ?? { ok: `Line ${arg("line_id")} is already active.` };
    case "refuel_data": {
      const gb = field(args, "gb_amount");
      if (typeof gb !== "number" || !(gb > 0)) return { error: "Invalid amount" };
      return lineOf() ?? { ok: `Added ${gb} GB of data to line ${arg("line_id")}.` };
    }
    case "transfer_to_human_agents":
      return { ok: "Transfer successful" };
    default:
      return { error: `Unknown tool: ${name}` };
  }
}
