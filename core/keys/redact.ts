// A secret can reach an error message as a property name: `{"rdk_…": "production"}` in an import, or an
// unknown property in a /v1 body. Messages name properties so that people can fix their input, so a name is
// shown unless it could be a key: anything with the key prefix, or as long as the shortest importable key.
const SHORTEST_SECRET = 20;

export const REDACTED = '«redacted»';

export function safePropertyName(name: PropertyKey): string {
  const text = String(name);
  return text.length >= SHORTEST_SECRET || /rdk_/i.test(text) ? REDACTED : text;
}
