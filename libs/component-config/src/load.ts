import { readFile } from 'node:fs/promises';
import { parseAllDocuments } from 'yaml';
import type { z } from 'zod';
import type { ComponentConfigSpec, FieldError } from './spec.js';

/** A configuration file that cannot be used; `errors` name each field and its problem. */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly errors: FieldError[],
  ) {
    super(`invalid configuration ${file}:\n` + errors.map((e) => `  ${e.field}: ${e.message}`).join('\n'));
    this.name = 'ConfigError';
  }
}

export interface LoadedConfig<T> {
  config: T;
  /** Field paths present in the file that this implementation does not support (yet). */
  ignoredFields: string[];
}

export async function loadComponentConfig<T>(spec: ComponentConfigSpec<T>, file: string): Promise<LoadedConfig<T>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(file, [{ field: '<file>', message: (err as Error).message }]);
  }
  return parseComponentConfig(spec, text, file);
}

/** Parses YAML or JSON text, checks apiVersion/kind, applies defaults and validates. */
export function parseComponentConfig<T>(
  spec: ComponentConfigSpec<T>,
  text: string,
  file = '<inline>',
): LoadedConfig<T> {
  const docs = parseAllDocuments(text).filter((d) => d.contents !== null);
  if (docs.length !== 1) {
    throw new ConfigError(file, [
      { field: '<file>', message: `expected exactly one YAML document, found ${docs.length}` },
    ]);
  }
  const doc = docs[0];
  if (doc.errors.length > 0) {
    throw new ConfigError(file, [{ field: '<file>', message: `malformed YAML: ${doc.errors[0].message}` }]);
  }
  const raw: unknown = doc.toJS();
  if (!isPlainObject(raw)) {
    throw new ConfigError(file, [{ field: '<file>', message: 'expected a YAML mapping at the top level' }]);
  }
  const header = checkHeader(spec, raw);
  if (header.length > 0) throw new ConfigError(file, header);

  const result = spec.schema.safeParse(raw);
  if (!result.success) throw new ConfigError(file, zodErrors(result.error));
  const config = result.data;
  const semantic = spec.validate?.(config) ?? [];
  if (semantic.length > 0) throw new ConfigError(file, semantic);
  return { config, ignoredFields: unknownFields(raw, config) };
}

function checkHeader(
  spec: Pick<ComponentConfigSpec<unknown>, 'apiVersion' | 'acceptedApiVersions' | 'kind'>,
  raw: Record<string, unknown>,
): FieldError[] {
  const errors: FieldError[] = [];
  const versions = [spec.apiVersion, ...(spec.acceptedApiVersions ?? [])];
  if (raw.apiVersion === undefined) errors.push({ field: 'apiVersion', message: 'Required value' });
  else if (!versions.includes(String(raw.apiVersion))) {
    errors.push({
      field: 'apiVersion',
      message: `Unsupported value: ${JSON.stringify(raw.apiVersion)}: supported values: ${versions.map((v) => `"${v}"`).join(', ')}`,
    });
  }
  if (raw.kind === undefined) errors.push({ field: 'kind', message: 'Required value' });
  else if (raw.kind !== spec.kind) {
    errors.push({
      field: 'kind',
      message: `Unsupported value: ${JSON.stringify(raw.kind)}: supported values: "${spec.kind}"`,
    });
  }
  return errors;
}

export function zodErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    field: formatPath(issue.path as PropertyKey[]) || '<root>',
    message: issue.message,
  }));
}

export function formatPath(path: PropertyKey[]): string {
  return path.reduce<string>((acc, seg) => {
    if (typeof seg === 'number') return `${acc}[${seg}]`;
    return acc ? `${acc}.${String(seg)}` : String(seg);
  }, '');
}

/** Paths present in `raw` that the schema dropped: the fields this implementation ignores. */
export function unknownFields(raw: unknown, parsed: unknown, path: PropertyKey[] = []): string[] {
  if (Array.isArray(raw) && Array.isArray(parsed)) {
    return raw.flatMap((item, i) => unknownFields(item, parsed[i], [...path, i]));
  }
  if (!isPlainObject(raw) || !isPlainObject(parsed)) return [];
  return Object.keys(raw).flatMap((key) =>
    key in parsed ? unknownFields(raw[key], parsed[key], [...path, key]) : [formatPath([...path, key])],
  );
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
