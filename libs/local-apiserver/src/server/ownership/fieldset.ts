// Sets of field paths as structured-merge-diff keeps them, and their FieldsV1 form in managedFields.
// A path is a list of path elements written as FieldsV1 keys: `f:<field>`, `k:{"name":"web"}` (an item of a
// map list, keys sorted), `v:"value"` (an item of a set), `i:<index>`. A set holds paths ("members"); in FieldsV1
// a member is `{}` and a member that also has members below it carries `".": {}`.

export type PathElement = string;
export type FieldPath = readonly PathElement[];

// Path elements never contain a raw newline: field names come from JSON keys written as given, but
// values inside `k:`/`v:` elements are JSON-encoded, and a field name with a newline is not a valid k8s field.
const SEP = '\n';

export function fieldElement(name: string): PathElement {
  return `f:${name}`;
}

/** `k:{"name":"web"}`: key fields sorted by name, values JSON-encoded (as kube's KeyValueFields). */
export function keyElement(keys: Record<string, unknown>): PathElement {
  const sorted = Object.keys(keys).sort(compareStrings);
  return `k:{${sorted.map((k) => `${JSON.stringify(k)}:${JSON.stringify(keys[k])}`).join(',')}}`;
}

export function valueElement(value: unknown): PathElement {
  return `v:${JSON.stringify(value)}`;
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const KIND_ORDER: Record<string, number> = { f: 0, k: 1, v: 2, i: 3 };

/** structured-merge-diff's order of path elements: field names, then keys, then values, then indices. */
export function compareElements(a: PathElement, b: PathElement): number {
  const ka = KIND_ORDER[a[0]] ?? 4;
  const kb = KIND_ORDER[b[0]] ?? 4;
  if (ka !== kb) return ka - kb;
  if (a[0] === 'i' && b[0] === 'i') return Number(a.slice(2)) - Number(b.slice(2));
  return compareStrings(a, b);
}

/** A path as kube prints it in conflicts: `.spec.containers[name="web"].image`, `.metadata.finalizers[="x"]`. */
export function pathString(path: FieldPath): string {
  return path.map(elementString).join('');
}

function elementString(element: PathElement): string {
  const body = element.slice(2);
  switch (element[0]) {
    case 'f':
      return `.${body}`;
    case 'k': {
      try {
        const keys = JSON.parse(body) as Record<string, unknown>;
        return `[${Object.keys(keys)
          .map((k) => `${k}=${valueString(keys[k])}`)
          .join(',')}]`;
      } catch {
        return `[${body}]`;
      }
    }
    case 'v':
      try {
        return `[=${valueString(JSON.parse(body))}]`;
      } catch {
        return `[=${body}]`;
      }
    case 'i':
      return `[${body}]`;
    default:
      return element;
  }
}

/** value.ToString: strings quoted, other scalars as they print, objects and lists as JSON. */
function valueString(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'null';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export class FieldSet {
  private readonly paths = new Set<string>();

  constructor(paths: Iterable<FieldPath> = []) {
    for (const p of paths) this.insert(p);
  }

  static fromKeys(keys: Iterable<string>): FieldSet {
    const set = new FieldSet();
    for (const k of keys) set.paths.add(k);
    return set;
  }

  insert(path: FieldPath): void {
    if (path.length > 0) this.paths.add(path.join(SEP));
  }

  has(path: FieldPath): boolean {
    return this.paths.has(path.join(SEP));
  }

  delete(path: FieldPath): void {
    this.paths.delete(path.join(SEP));
  }

  get size(): number {
    return this.paths.size;
  }

  empty(): boolean {
    return this.paths.size === 0;
  }

  keys(): string[] {
    return [...this.paths];
  }

  /** The paths, sorted like structured-merge-diff iterates them. */
  list(): FieldPath[] {
    return [...this.paths].map((k) => k.split(SEP)).sort(comparePaths);
  }

  union(other: FieldSet): FieldSet {
    return FieldSet.fromKeys([...this.paths, ...other.paths]);
  }

  difference(other: FieldSet): FieldSet {
    return FieldSet.fromKeys([...this.paths].filter((k) => !other.paths.has(k)));
  }

  intersection(other: FieldSet): FieldSet {
    return FieldSet.fromKeys([...this.paths].filter((k) => other.paths.has(k)));
  }

  /** Removes the given paths and everything below them. */
  recursiveDifference(other: FieldSet): FieldSet {
    return FieldSet.fromKeys([...this.paths].filter((k) => !other.coversKey(k)));
  }

  /** Keeps only paths at or below one of the given prefixes. */
  restrictTo(prefixes: FieldPath[]): FieldSet {
    const keys = prefixes.map((p) => p.join(SEP));
    return FieldSet.fromKeys([...this.paths].filter((k) => keys.some((p) => k === p || k.startsWith(p + SEP))));
  }

  /** Whether some path of this set equals `path` or lies below it. */
  hasAtOrBelow(path: FieldPath): boolean {
    const key = path.join(SEP);
    for (const k of this.paths) if (k === key || k.startsWith(key + SEP)) return true;
    return false;
  }

  private coversKey(key: string): boolean {
    for (const k of this.paths) if (key === k || key.startsWith(k + SEP)) return true;
    return false;
  }

  equals(other: FieldSet): boolean {
    return this.paths.size === other.paths.size && [...this.paths].every((k) => other.paths.has(k));
  }

  /** The FieldsV1 JSON of the set. */
  toFieldsV1(): Record<string, unknown> {
    const root: TreeNode = { member: false, children: new Map() };
    for (const key of this.paths) {
      let node = root;
      for (const element of key.split(SEP)) {
        let next = node.children.get(element);
        if (!next) node.children.set(element, (next = { member: false, children: new Map() }));
        node = next;
      }
      node.member = true;
    }
    return emit(root, false);
  }

  /** Parses FieldsV1 JSON; throws on anything that is not a FieldsV1 tree. */
  static fromFieldsV1(fields: unknown): FieldSet {
    const set = new FieldSet();
    const walk = (node: unknown, path: PathElement[]) => {
      if (typeof node !== 'object' || node === null || Array.isArray(node))
        throw new Error('FieldsV1 nodes must be objects');
      const entries = Object.entries(node as Record<string, unknown>);
      if (entries.length === 0) {
        set.insert(path);
        return;
      }
      for (const [k, v] of entries) {
        if (k === '.') {
          set.insert(path);
          continue;
        }
        if (!/^[fkvi]:/.test(k)) throw new Error(`unexpected FieldsV1 key ${JSON.stringify(k)}`);
        walk(v, [...path, k]);
      }
    };
    walk(fields, []);
    return set;
  }
}

interface TreeNode {
  member: boolean;
  children: Map<PathElement, TreeNode>;
}

function emit(node: TreeNode, includeSelf: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (includeSelf && node.member && node.children.size > 0) out['.'] = {};
  for (const element of [...node.children.keys()].sort(compareElements)) {
    const child = node.children.get(element)!;
    out[element] = child.children.size === 0 ? {} : emit(child, true);
  }
  return out;
}

export function comparePaths(a: FieldPath, b: FieldPath): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareElements(a[i], b[i]);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}
