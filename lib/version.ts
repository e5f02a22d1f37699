/** The package version, printed by every binary's --version. */
export const VERSION = "0.1.0";
