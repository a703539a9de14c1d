// The one error type an operation throws for a mistake of its caller. Hosts turn it into their own shape
// (CLI: one stderr line + exit 1; IPC: {ok:false,error:{code,message}}); anything else is a bug.
import type { z } from 'zod';
import { safePropertyName } from '../keys/redact';

/**
 * `busy`: another program held the data file's write lock too long; the same call may succeed shortly.
 * `offline`: a company desk could not reach its company server (#20); nothing was run.
 */
export type OperationErrorCode = 'invalid' | 'not_found' | 'conflict' | 'forbidden' | 'busy' | 'offline';

export class OperationError extends Error {
  override readonly name = 'OperationError';

  constructor(
    readonly code: OperationErrorCode,
    message: string,
  ) {
    super(message);
  }

  toJSON(): { code: OperationErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}

export function isOperationError(error: unknown): error is OperationError {
  return error instanceof OperationError;
}

/**
 * One readable line from a zod failure: "field: problem; other: problem". zod's messages describe the
 * expectation, never the received value; property names, which can be secrets (a key pasted as a JSON key),
 * go through safePropertyName, and unknown ones are named by us rather than by zod's message, which quotes them.
 */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const message =
        issue.code === 'unrecognized_keys'
          ? `unknown ${issue.keys.length === 1 ? 'property' : 'properties'} ${issue.keys.map((k) => `"${safePropertyName(k)}"`).join(', ')}`
          : issue.message;
      return issue.path.length > 0 ? `${issue.path.map(safePropertyName).join('.')}: ${message}` : message;
    })
    .join('; ');
}
