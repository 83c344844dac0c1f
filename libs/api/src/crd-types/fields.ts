// Ties a list of field names to a type at compile time: every key of T must be listed, and only keys of T.

type Missing<T, K extends readonly PropertyKey[]> = Exclude<keyof T, K[number]>;

export function fieldsOf<T>() {
  return <const K extends readonly (keyof T & string)[]>(
    keys: K & ([Missing<T, K>] extends [never] ? unknown : { missingFields: Missing<T, K> }),
  ): readonly string[] => keys;
}
