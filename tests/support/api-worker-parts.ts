// Parts of the API worker that Durable Object tests use to reach the object as the worker does
// (a stub by name, a ticket it signed), so durable-objects/ itself never imports workers/.
export { createTicket } from "../../workers/api/src/auth/tickets";
export { conversationStub } from "../../workers/api/src/conversation-lifecycle";
