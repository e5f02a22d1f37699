/**
 * A τ²-bench checkout and results file made from recorded sessions: each session's episode
 * as a simulation (its messages in order, reward 1), and a `tools.py` declaring the
 * sessions' tools as τ²-bench declares its own, so `--results` and `--tau2` read what
 * `--sessions` reads.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { folderEpisodes, planFolder } from "../../lib/trace/index.js";
import type { Episode } from "../../lib/trace/episode-types.js";

/** The tools of spec/drift/habit-sessions.ts, as a τ²-bench domain's tools.py declares them. */
export const TOOLS_PY = `class RetailTools(ToolKitBase):
    """All the tools for the retail domain."""

    @is_tool(ToolType.READ)
    def find_user_id_by_email(self, email: str) -> str:
        """Find user id by email. If the user is not found, the function will return an error message.

        Args:
            email: The email of the user, such as
                'something@example.com'.

        Returns:
            str: The user id if found, otherwise an error message.
        """
        return self._find(email)

    @is_tool(ToolType.READ)
    def get_user_details(self, user_id: str) -> User:
        """Get the details of a user, including their orders.

        Args:
            user_id: The user id, such as 'sara_doe_496'.
        """
        return self._get_user(user_id)

    @is_tool(ToolType.READ)
    def get_order_details(self, order_id: str) -> Order:
        """Get the status and details of an order."""
        return self._get_order(order_id)

    @is_tool(ToolType.READ)
    def get_product_details(self, product_id: str) -> Product:
        """Get the inventory details of a product."""
        return self._get_product(product_id)

    @is_tool(ToolType.WRITE)
    def cancel_pending_order(self, order_id: str, reason: str) -> Order:
        """Cancel a pending order.

        Args:
            order_id: The order id, such as '#W0000000'.
            reason: The reason for cancellation.
        """
        return self._cancel(order_id, reason)

    @is_tool(ToolType.GENERIC)
    def transfer_to_human_agents(self, summary: str) -> str:
        """Transfer the user to a human agent."""
        return "Transfer successful"
`;

/** A checkout holding only the retail domain's tools.py. */
export function writeCheckout(dir: string): string {
  mkdirSync(join(dir, "src", "tau2", "domains", "retail"), { recursive: true });
  writeFileSync(join(dir, "src", "tau2", "domains", "retail", "tools.py"), TOOLS_PY);
  return dir;
}

function simulation(ep: Episode): unknown {
  const messages: unknown[] = [];
  for (const e of ep.events) {
    if (e.kind === "user") messages.push({ role: "user", content: e.text });
    else if (e.kind === "assistant") messages.push({ role: "assistant", content: e.text, tool_calls: e.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) });
    else if (e.kind === "tool_result") messages.push({ role: "tool", id: e.call_id, content: e.content, error: e.error });
  }
  return { id: ep.id, task_id: ep.id, trial: 0, reward_info: { reward: 1 }, messages };
}

/** The sessions of `dir` as a retail results file at `path`. */
export async function writeResults(dir: string, path: string): Promise<void> {
  const simulations: unknown[] = [];
  let llm = "unknown";
  for await (const ep of folderEpisodes(await planFolder(dir))) {
    simulations.push(simulation(ep));
    llm = ep.agent_model;
  }
  writeFileSync(path, JSON.stringify({ info: { environment_info: { domain_name: "retail" }, agent_info: { llm } }, simulations }));
}
