/**
 * The customer's phone in the telecom world: a few switches, and what the phone's own
 * checks say about them, in the words τ²-bench's telecom phone uses (`Status Bar: …`,
 * `Airplane Mode: ON`), since the published procedure asks about those words.
 */
export class Phone {
  airplane = true;
  mobileData = true;
  roaming = false;
  dataSaver = false;
  vpn = false;
  wifiCalling = false;
  networkMode = "4g_5g_preferred";

  /** One line: every icon the bar shows, `|`-separated; the battery's figure is never a feature. */
  statusBar(): string {
    const parts: string[] = [];
    if (this.airplane) parts.push("✈️ Airplane Mode");
    else {
      parts.push(this.networkMode === "2g_only" ? "📶¹ Poor" : "📶⁴ Excellent");
      parts.push(this.mobileData ? "📱 Data Enabled" : "📵 Data Disabled");
      if (this.dataSaver) parts.push("🔽 Data Saver");
      if (this.vpn) parts.push("🔒 VPN Connected");
    }
    parts.push("🔋 80%");
    return `Status Bar: ${parts.join(" | ")}`;
  }

  hasService(): boolean {
    return !this.airplane;
  }

  hasData(): boolean {
    return this.hasService() && this.mobileData;
  }

  networkStatus(): string {
    const yesNo = (b: boolean) => (b ? "Yes" : "No");
    return [
      `Airplane Mode: ${this.airplane ? "ON" : "OFF"}`,
      "SIM Card Status: active",
      `Cellular Connection: ${this.hasService() ? "connected" : "no_service"}`,
      `Cellular Signal: ${this.hasService() ? (this.networkMode === "2g_only" ? "poor" : "excellent") : "none"}`,
      `Cellular Network Type: ${this.networkMode}`,
      `Mobile Data Enabled: ${yesNo(this.mobileData)}`,
      `Data Roaming Enabled: ${yesNo(this.roaming)}`,
      `Wi-Fi Calling Enabled: ${yesNo(this.wifiCalling)}`,
    ].join("\n");
  }

  speedTest(): string {
    if (!this.hasData()) return "Speed test failed: No connection.";
    return this.networkMode === "2g_only"
      ? "Download Speed: 0.2 Mbps (Very Poor)\nUpload Speed: 0.1 Mbps"
      : "Download Speed: 250.0 Mbps (Excellent)\nUpload Speed: 50.0 Mbps";
  }

  /** A switch's answer: what changed, then the status bar as it now is. */
  toggled(what: string, on: boolean): string {
    return `${what} is now ${on ? "ON" : "OFF"}.\n${this.statusBar()}`;
  }
}
