import { expandTilde } from "./tilde.js";

/**
 * A side-file path given on the command line (`--context`, later `--flow-log`,
 * `--confirm-log`): `~` expanded, and `{session}` replaced by the host session when there
 * is one, else the session id, so the side files of one host session (one per server it
 * runs) share a name and line up.
 */
export function sessionPath(path: string, session: { hostSession?: string | undefined; session: string }): string {
  return expandTilde(path).replaceAll("{session}", session.hostSession ?? session.session);
}
