/** The Russian plural rule lives in the contract, shared with the server's mails and messages. */
export { DAY_FORMS, formatCount, formatOutOf, pluralRu, type RuForms } from '@lms/contract';
