/** `stretto init`: a host's configuration for a server behind stretto-proxy, and the next steps. */
export { HOSTS, isHost, serversKey, type Host } from "./hosts.js";
export { shellLine, shellWord } from "./shell-words.js";
export { domainProblem } from "./check-domain.js";
export { listenAt, type ListenAt } from "./listen-url.js";
export { TOKEN_VARIABLE, type ServedFlow, type Setup, type Target } from "./setup.js";
export { listeningArgs, stdioArgs } from "./proxy-args.js";
export { byUrl, claudeCodeLine, configText, listenNote, placement, serverEntry, snippet } from "./host-config.js";
export { nextSteps } from "./next-steps.js";
export { mergeConfig, type Merged } from "./merge-config.js";
export { InitError, writeConfig, type Written } from "./write-config.js";
export { isProgram, onPath } from "./on-path.js";
export { PROXY, proxyName } from "./proxy-name.js";
