// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we look for.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Whether `text` holds a C0 or C1 control character or DEL: never part of a name, an e-mail
 * address or a URL worth storing, and NUL is a byte PostgreSQL refuses in any text value.
 */
export function hasControlCharacters(text: string): boolean {
  return CONTROL.test(text);
}
