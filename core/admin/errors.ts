// The one error type admin operations throw for a user's mistake. Hosts turn it into their own shape
// (CLI: one stderr line + exit 1; IPC: {ok:false,error:{code,message}}); anything else is a bug.
import type { z } from 'zod';

export type AdminErrorCode = 'invalid' | 'not_found' | 'conflict';

export class AdminError extends Error {
  override readonly name = 'AdminError';

  constructor(
    readonly code: AdminErrorCode,
    message: string,
  ) {
    super(message);
  }

  toJSON(): { code: AdminErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}

export function isAdminError(error: unknown): error is AdminError {
  return error instanceof AdminError;
}

/**
 * One readable line from a zod failure: "field: problem; other: problem". zod's messages describe the
 * expectation, never the received value, so a mistyped secret cannot leak through an error message.
 */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
