// The bounds of an error report, apart from its contract: the app reports errors from its first
// line on, before (and without) evaluating zod.
/** Largest report body the server reads; a stack trace is cut to fit long before that. */
export const CLIENT_ERROR_MAX_BYTES = 16 * 1024;
export const CLIENT_ERROR_STACK_MAX = 8000;
export const CLIENT_ERROR_MESSAGE_MAX = 1000;
