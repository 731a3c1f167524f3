/** Messages (email): what a form asks for, how a message is composed, recorded and sent. */
export * from "./FormMessages.js"
export * from "./Message.js"
export * from "./Mailer.js"
export * from "./MessageRows.js"
export * from "./MessagesConfig.js"
export { answersText, composeSubmitMessages, subjectText, valueText } from "./composeMessages.js"
export { messageIdOf, sendDueMessages, settlementOf } from "./sendDue.js"
export { checkMessages } from "./checkMessages.js"
