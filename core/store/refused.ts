// Stored data this build must not open, whichever implementation keeps it: refused before anything in it is
// read or changed (a data file, or a company database).
export type RefusalReason = 'checksum-mismatch' | 'newer' | 'history-damaged';

/**
 * This build cannot safely open the stored data (`file`: a data file path, or a database URL without its
 * credentials); nothing in it was changed. The message is one line (the admin
 * CLI prints the first line of an unexpected error) that names the file, what differs and what to do.
 */
export class DataFileRefusedError extends Error {
  override readonly name = 'DataFileRefusedError';
  constructor(
    readonly reason: RefusalReason,
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}
