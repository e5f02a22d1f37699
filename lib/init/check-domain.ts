/**
 * A domain names the server in the host, a folder of session logs and a flow's file, so it
 * stays a plain file name: ASCII letters, digits, `-`, `_` and `.`, not starting with `.` or `-`.
 */
export function domainProblem(domain: string): string | undefined {
  if (/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(domain)) return undefined;
  return `--domain ${JSON.stringify(domain)}: the domain names the server, a directory and a flow's file, so use letters, digits, \`-\`, \`_\` and \`.\``;
}
