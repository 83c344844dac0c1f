// RFC 6902 JSON patch as kube-apiserver applies it (gopkg.in/evanphx/json-patch.v4): JSON pointers with ~0/~1
// escapes, `-` appends, negative array indices count from the end, the root itself cannot be targeted. A body that
// does not decode is a 400; an operation that does not apply is a 422 with the library's message as the cause.
import { ApiError, errors } from '../../api/errors.js';
import type { KubeObject } from '../../storage/types.js';
import { isPlainObject } from '../../schema/navigate.js';
import { deepEqual, goKind, hasOwn, parseJson, put, unprocessable, type JsonMap } from './common.js';

const MAX_OPERATIONS = 10000;

type Container = JsonMap | unknown[];
type Operation = JsonMap;

/** A failed operation; its message is what evanphx/json-patch reports. */
class OpError extends Error {}

export function applyJsonPatch(live: KubeObject, body: string): KubeObject {
  const operations = decodePatch(body);
  const doc = structuredClone(live);
  for (const operation of operations) {
    try {
      applyOperation(doc, operation);
    } catch (e) {
      if (e instanceof OpError) throw unprocessable(e.message);
      throw e;
    }
  }
  return doc;
}

function decodePatch(body: string): Operation[] {
  const parsed = parseJson(body);
  if (!parsed.ok) throw errors.badRequest(parsed.message);
  if (parsed.value === null) return []; // Go decodes `null` into an empty patch
  if (!Array.isArray(parsed.value)) {
    throw errors.badRequest(`json: cannot unmarshal ${goKind(parsed.value)} into Go value of type jsonpatch.Patch`);
  }
  const operations: Operation[] = [];
  for (const op of parsed.value) {
    if (op !== null && !isPlainObject(op)) {
      throw errors.badRequest(`json: cannot unmarshal ${goKind(op)} into Go value of type jsonpatch.Operation`);
    }
    operations.push(op ?? {});
  }
  if (operations.length > MAX_OPERATIONS) {
    throw new ApiError(
      413,
      'RequestEntityTooLarge',
      `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_OPERATIONS}, got ${operations.length}`,
    );
  }
  return operations;
}

function applyOperation(doc: JsonMap, op: Operation): void {
  const kind = typeof op.op === 'string' ? op.op : 'unknown';
  switch (kind) {
    case 'add':
      return add(doc, op);
    case 'remove':
      return remove(doc, op);
    case 'replace':
      return replace(doc, op);
    case 'move':
      return move(doc, op);
    case 'test':
      return test(doc, op);
    case 'copy':
      return copy(doc, op);
    default:
      throw new OpError(`Unexpected kind: ${kind}`);
  }
}

// --- operations -------------------------------------------------------------------------------------------------

function add(doc: JsonMap, op: Operation): void {
  const path = pointer(op, 'path', 'add operation failed to decode path');
  const [con, key] = locate(doc, path, `add operation does not apply: doc is missing path: "${path}"`);
  wrap(`error in add for path: '${path}'`, () => addAt(con, key, valueOf(op)));
}

function remove(doc: JsonMap, op: Operation): void {
  const path = pointer(op, 'path', 'remove operation failed to decode path');
  const [con, key] = locate(doc, path, `remove operation does not apply: doc is missing path: "${path}"`);
  wrap(`error in remove for path: '${path}'`, () => removeAt(con, key));
}

function replace(doc: JsonMap, op: Operation): void {
  const path = pointer(op, 'path', 'replace operation failed to decode path');
  const [con, key] = locate(doc, path, `replace operation does not apply: doc is missing path: ${path}`);
  let current: unknown;
  try {
    current = getAt(con, key);
  } catch {
    current = undefined;
  }
  // json-patch v4 treats a null value like a missing one here.
  if (current === undefined || current === null) {
    throw new OpError(`replace operation does not apply: doc is missing key: ${path}: missing value`);
  }
  wrap(`error in remove for path: '${path}'`, () => setAt(con, key, valueOf(op)));
}

function move(doc: JsonMap, op: Operation): void {
  const from = pointer(op, 'from', 'move operation failed to decode from');
  const [fromCon, fromKey] = locate(doc, from, `move operation does not apply: doc is missing from path: ${from}`);
  const value = wrap(`error in move for path: '${from}'`, () => getAt(fromCon, fromKey));
  wrap(`error in move for path: '${from}'`, () => removeAt(fromCon, fromKey));
  const path = pointer(op, 'path', 'move operation failed to decode path');
  const [con, key] = locate(doc, path, `move operation does not apply: doc is missing destination path: ${path}`);
  wrap(`error in move for path: '${path}'`, () => addAt(con, key, value ?? null));
}

function test(doc: JsonMap, op: Operation): void {
  const path = pointer(op, 'path', 'test operation failed to decode path');
  const [con, key] = locate(doc, path, `test operation does not apply: is missing path: ${path}`);
  const current = wrap(`error in test for path: '${path}'`, () => getAt(con, key));
  const expected = valueOf(op);
  const missing = current === undefined || current === null;
  if (missing ? expected === null : deepEqual(current, expected)) return;
  throw new OpError(`testing value ${path} failed: test failed`);
}

function copy(doc: JsonMap, op: Operation): void {
  const from = pointer(op, 'from', 'copy operation failed to decode from');
  const [fromCon, fromKey] = locate(doc, from, `copy operation does not apply: doc is missing from path: ${from}`);
  const value = wrap(`error in copy for from: '${from}'`, () => getAt(fromCon, fromKey));
  if (value === undefined)
    throw new OpError(`copy operation does not apply: doc is missing from path: ${from}: missing value`);
  const path = pointer(op, 'path', 'copy operation failed to decode path');
  const [con, key] = locate(doc, path, `copy operation does not apply: doc is missing destination path: ${path}`);
  wrap(`error in copy for path: '${path}'`, () => addAt(con, key, structuredClone(value)));
}

// --- pointers ---------------------------------------------------------------------------------------------------

function valueOf(op: Operation): unknown {
  return hasOwn(op, 'value') ? op.value : null;
}

function pointer(op: Operation, field: 'path' | 'from', failure: string): string {
  const value = op[field];
  if (typeof value !== 'string') throw new OpError(`${failure}: missing value`);
  return value;
}

function unescape(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The container holding the pointer's last token, and that token (unescaped). The root has no container. */
function locate(doc: JsonMap, path: string, failure: string): [Container, string] {
  const tokens = path.split('/');
  if (tokens.length < 2) throw new OpError(`${failure}: missing value`);
  let con: Container = doc;
  for (const token of tokens.slice(1, -1)) {
    let next: unknown;
    try {
      next = getAt(con, unescape(token));
    } catch {
      next = undefined;
    }
    if (!Array.isArray(next) && !isPlainObject(next)) throw new OpError(`${failure}: missing value`);
    con = next;
  }
  return [con, unescape(tokens[tokens.length - 1]!)];
}

function wrap<T>(context: string, action: () => T): T {
  try {
    return action();
  } catch (e) {
    if (e instanceof OpError) throw new OpError(`${context}: ${e.message}`);
    throw e;
  }
}

// --- container access -------------------------------------------------------------------------------------------

function invalidIndex(index: number | string): OpError {
  return new OpError(`Unable to access invalid index: ${index}: invalid index referenced`);
}

function parseIndex(key: string): number {
  if (!/^[+-]?\d+$/.test(key)) throw new OpError(`strconv.Atoi: parsing ${JSON.stringify(key)}: invalid syntax`);
  return Number(key);
}

/** An existing element's index; negative indices count from the end. */
function elementIndex(array: unknown[], key: string): number {
  let index = parseIndex(key);
  if (index < 0) {
    if (index < -array.length) throw invalidIndex(index);
    index += array.length;
  }
  if (index >= array.length) throw invalidIndex(index);
  return index;
}

function getAt(con: Container, key: string): unknown {
  if (Array.isArray(con)) return con[elementIndex(con, key)];
  return hasOwn(con, key) ? con[key] : undefined;
}

function setAt(con: Container, key: string, value: unknown): void {
  if (Array.isArray(con)) con[elementIndex(con, key)] = value;
  else put(con, key, value);
}

function addAt(con: Container, key: string, value: unknown): void {
  if (!Array.isArray(con)) {
    put(con, key, value);
    return;
  }
  if (key === '-') {
    con.push(value);
    return;
  }
  let index = parseIndex(key);
  if (index < 0) {
    if (index < -con.length) throw invalidIndex(index);
    index += con.length;
  }
  if (index > con.length) throw invalidIndex(index);
  con.splice(index, 0, value);
}

function removeAt(con: Container, key: string): void {
  if (Array.isArray(con)) {
    con.splice(elementIndex(con, key), 1);
    return;
  }
  if (!hasOwn(con, key)) throw new OpError(`Unable to remove nonexistent key: ${key}: missing value`);
  delete con[key];
}
