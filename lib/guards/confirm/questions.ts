/**
 * The questions the confirmation judge puts to the System-One model, word for word: the model
 * is prompted with them and cached answers are keyed by them, so a change of one letter is a
 * new question (and a cache that no longer answers).
 */
import type { NoulQuestion } from "../../oracle/oracle.js";

/** The first question's id: did the customer's reply explicitly agree to this change? */
export const CONFIRMED = "confirmed";

/** The second question's wordings: `proposed` (recommended) and `described` (too literal). */
export type SecondQuestion = "proposed" | "described";
export const SECOND_QUESTIONS: readonly SecondQuestion[] = ["proposed", "described"];

export type QuestionId = typeof CONFIRMED | SecondQuestion;

const ABOUT = "An agent in a customer-service chat is about to make the change in call_about_to_be_made.";

export const QUESTIONS: Readonly<Record<QuestionId, NoulQuestion>> = {
  confirmed: {
    type: "noul",
    instructions: `${ABOUT} The policy requires the agent to describe a change and get the customer's explicit yes before making it. Did the customer's reply explicitly agree to this change?`,
    criteria: {
      true: "The reply clearly agrees to go ahead with this change as the agent described it, for example 'yes', 'go ahead' or 'please do'.",
      false:
        "The reply does not agree to this change: it asks a question, gives information, declines, agrees to something different, or the agent never described this change.",
    },
  },
  proposed: {
    type: "noul",
    instructions: `${ABOUT} The policy requires the agent to propose a change and get the customer's yes before making it. Had the agent proposed this change before the customer's reply?`,
    criteria: {
      true: "agent_said_last proposes this change, offers it among options the customer then picked, or refers to it as a change the agent set out before, such as 'the upgrade on your reservation' or 'the cancellation'.",
      false:
        "The customer's reply asks for a change that agent_said_last neither proposes nor refers to, or one that differs from what the agent proposed (another order or reservation, other items, another address or amount), or agent_said_last proposes a different change.",
    },
  },
  described: {
    type: "noul",
    instructions: `${ABOUT} The policy requires the agent to describe a change before the customer agrees to it. Did agent_said_last, the agent's message before the customer's reply, describe this exact change?`,
    criteria: {
      true: "agent_said_last describes this change: what will be done, to which order, reservation or items, and with what amounts, addresses or payment method where the call sets them.",
      false:
        "agent_said_last does not describe this change: it describes nothing to be done, a different change (other items, amounts or payment method, or another action), or only asks for information.",
    },
  },
};
