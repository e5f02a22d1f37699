/**
 * The package version, printed by every binary's --version and sent as the client's and
 * server's version. spec/util/version.spec.ts checks it is package.json's.
 */
export const VERSION = "0.1.0";
