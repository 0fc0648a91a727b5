// The worker's end of an API (the page's end: connection.ts), knowing no operation by name: each
// {id, method, args} is answered with api[method](...args), awaited. Results are fresh copies, so
// their ArrayBuffers move to the page instead of being cloned. Kept free of worker globals so that
// Node tests serve through it too.
import type { CallMessage, ErrorPayload, Progress, ResponseMessage } from './protocol';

/** What expose() needs of the worker's global scope. */
export interface Scope {
  addEventListener(type: 'message', listener: (event: MessageEvent<CallMessage>) => void): void;
  postMessage(message: ResponseMessage, transfer: Transferable[]): void;
}

/** Answers every call the page posts to `scope` with `api`'s method of that name. */
export function expose(api: object, scope: Scope): void {
  scope.addEventListener('message', (event) => {
    const call = event.data;
    if (typeof call?.id === 'number') void answer(api, call, scope); // else not ours
  });
}

async function answer(api: object, call: CallMessage, scope: Scope): Promise<void> {
  const { id } = call;
  try {
    const result: unknown = await invoke(api, call, scope);
    scope.postMessage({ id, ok: true, result }, collectBuffers(result));
  } catch (err) {
    scope.postMessage({ id, ok: false, error: errorPayload(err) }, []);
  }
}

function invoke(api: object, { id, method, args, progress }: CallMessage, scope: Scope): unknown {
  // only the API's own methods: not Object.prototype's (constructor, toString, …)
  const fn = typeof method === 'string' && !(method in Object.prototype) ? (api as Record<string, unknown>)[method] : undefined;
  if (typeof fn !== 'function') throw new TypeError(`unknown method ${JSON.stringify(String(method).slice(0, 40))}`);
  if (!Array.isArray(args)) throw new TypeError(`${method}: args must be an array`);
  if (typeof progress === 'number') {
    const channel: Progress<unknown[]> = { id, report: (...values) => scope.postMessage({ id, progress: values }, collectBuffers(values)) };
    args[progress] = channel;
  }
  return (fn as (...a: unknown[]) => unknown).apply(api, args);
}

/** Every distinct ArrayBuffer reachable through typed arrays in a result. */
export function collectBuffers(value: unknown, out = new Set<ArrayBuffer>(), depth = 0): ArrayBuffer[] {
  if (depth > 8 || value === null || typeof value !== 'object') return [...out];
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) out.add(value.buffer);
  } else if (Array.isArray(value)) {
    for (const item of value) collectBuffers(item, out, depth + 1);
  } else {
    for (const item of Object.values(value)) collectBuffers(item, out, depth + 1);
  }
  return [...out];
}

/** An Error as a structured-clone-safe payload (a diverged run keeps its completed steps). */
export function errorPayload(err: unknown): ErrorPayload {
  if (err instanceof Error) {
    const payload: ErrorPayload = { name: err.name, message: err.message };
    const { completed, code, details } = err as Error & Pick<ErrorPayload, 'completed' | 'code' | 'details'>;
    if (completed) payload.completed = completed;
    if (typeof code === 'string') Object.assign(payload, { code, details });
    return payload;
  }
  return { name: 'Error', message: String(err) };
}
