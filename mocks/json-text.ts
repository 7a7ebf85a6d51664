/**
 * The JSON text of response bodies, made once. A frozen body (a page shared by many answers) keeps its text for
 * as long as it lives. A body serialised before it is sent (to keep an idempotent answer) leaves its text for the
 * serialiser, which takes it once: a body that is not frozen may be another object's next time.
 */
const frozenTexts = new WeakMap<object, string>();
const pendingTexts = new WeakMap<object, string>();

const isObject = (body: unknown): body is object => body !== null && typeof body === 'object';

/** The body's JSON text (undefined has none: `JSON.stringify` gives undefined). */
export function jsonText(body: unknown): string {
  if (!isObject(body)) return JSON.stringify(body);
  if (Object.isFrozen(body)) {
    let text = frozenTexts.get(body);
    if (text === undefined) frozenTexts.set(body, (text = JSON.stringify(body)));
    return text;
  }
  const pending = pendingTexts.get(body);
  if (pending === undefined) return JSON.stringify(body);
  pendingTexts.delete(body);
  return pending;
}

const frozenBytes = new WeakMap<object, Uint8Array>();
const encoder = new TextEncoder();

/**
 * A frozen body's JSON text as UTF-8 bytes, encoded once and kept as long as the body lives (its text is kept
 * already): the page many answers share is neither measured for its Content-Length nor encoded for the socket
 * again. Undefined for any other body, whose text is made for one answer, and for a text longer than `maxChars`
 * (a body streamed a chunk at a time is never encoded whole).
 */
export function frozenJsonBytes(body: unknown, maxChars = Number.POSITIVE_INFINITY): Uint8Array | undefined {
  if (!isObject(body) || !Object.isFrozen(body)) return undefined;
  let bytes = frozenBytes.get(body);
  if (bytes === undefined) {
    const text = jsonText(body);
    if (text.length > maxChars) return undefined;
    frozenBytes.set(body, (bytes = encoder.encode(text)));
  }
  return bytes;
}

/**
 * The body's JSON text, kept for the serialiser of the answer it belongs to. `known` is that text when the
 * caller has it already (made from parts serialised for the store): it must be exactly `JSON.stringify(body)`.
 */
export function rememberJsonText(body: unknown, known?: string): string {
  const text = known ?? jsonText(body);
  if (isObject(body) && !Object.isFrozen(body)) pendingTexts.set(body, text);
  return text;
}

/** Code that may change the body (the caller's hooks) is about to get it: its kept text would be stale. */
export function forgetJsonText(body: unknown): void {
  if (isObject(body)) pendingTexts.delete(body);
}

/** Deep-freezes a body that is reused across responses, so serialise may keep its JSON. */
export function freezeDeep<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) freezeDeep(child);
  }
  return value;
}
