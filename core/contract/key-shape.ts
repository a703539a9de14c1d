// What an API key looks like, for checks made before any lookup: the core's own format and the rule for
// keys issued elsewhere that an admin imports. Zod-free and Node-free, so the desk's import dialog applies
// exactly the core's rule (the checksum itself is checked by the core).

export const KEY_PREFIX = 'rdk_';
/** `rdk_` + at least 32 base62 random characters + the 6-character base62 CRC32. */
export const RATEDESK_KEY_PATTERN = /^rdk_([0-9A-Za-z]{32,})([0-9A-Za-z]{6})$/;
/** Keys issued elsewhere that an admin imports: printable ASCII without spaces, 20 to 200 characters. */
export const FOREIGN_KEY_PATTERN = /^[\x21-\x7e]{20,200}$/;
