// Typed protobuf codecs over the generated descriptor: plain objects in, bytes out, and back, with errors that say which
// field of which message is wrong instead of silently coercing or dropping it.
import protobuf from 'protobufjs/light.js';
import descriptor from '../generated/descriptor.json' with { type: 'json' };
import type { MessageTypes } from '../generated/types.js';
import { checkShape } from './shape.js';

/** A message as a publisher may write it: every field optional, proto3 defaults fill the rest. */
export type MessageInput<T> = T extends (infer U)[]
  ? MessageInput<U>[]
  : T extends Uint8Array
    ? T
    : T extends object
      ? { [K in keyof T]?: MessageInput<T[K]> }
      : T;

export type MessageTypeName = keyof MessageTypes;

export interface Codec<T> {
  readonly typeName: string;
  /** Throws a CodecError naming the field when the value does not fit the schema. */
  encode(value: MessageInput<T>): Uint8Array;
  /** Throws a CodecError when the bytes are not a valid encoding of the message. */
  decode(bytes: Uint8Array): T;
}

export class CodecError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CodecError';
  }
}

const root = protobuf.Root.fromJSON(descriptor);

// Enums as their names, 64-bit integers as numbers, absent messages left out (not null), oneofs named.
const TO_OBJECT: protobuf.IConversionOptions = {
  longs: Number,
  enums: String,
  defaults: true,
  arrays: true,
  oneofs: true,
};

export function codecFor<N extends MessageTypeName>(name: N): Codec<MessageTypes[N]> {
  const type = root.lookupType(name);
  return {
    typeName: name,
    encode(value) {
      const problem = checkShape(type, value, name);
      if (problem) throw new CodecError(`cannot encode ${name}: ${problem}`);
      return type.encode(type.fromObject(value as Record<string, unknown>)).finish();
    },
    decode(bytes) {
      let message: protobuf.Message;
      try {
        message = type.decode(bytes);
      } catch (err) {
        throw new CodecError(`cannot decode ${name} from ${bytes.length} bytes: ${(err as Error).message}`, {
          cause: err,
        });
      }
      return withoutNulls(type.toObject(message, TO_OBJECT)) as MessageTypes[N];
    },
  };
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}
