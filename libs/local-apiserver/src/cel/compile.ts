// Compiling a CEL expression against an environment, with kube's compile-error wording
// (`compilation failed: ERROR: <input>: ...`); shared by CRD validation rules and admission match conditions.
import type { Environment } from '@marcbachmann/cel-js';

export type Program = (ctx: Record<string, unknown>) => unknown;

export interface CompileResult {
  program?: Program;
  /** The checked result type, e.g. `bool`. */
  type?: string;
  error?: string;
}

/** The first line of a (multi-line) library message. */
export const firstLine = (message: string) => message.split('\n')[0].trim();

export function compile(env: Environment, expression: string): CompileResult {
  try {
    const checked = env.check(expression) as { valid: boolean; type?: unknown; error?: { message?: string } };
    if (!checked.valid)
      return {
        error: `compilation failed: ERROR: <input>: ${firstLine(checked.error?.message ?? 'invalid expression')}`,
      };
    return { program: env.parse(expression) as unknown as Program, type: String(checked.type) };
  } catch (err) {
    return { error: `compilation failed: ERROR: <input>: ${firstLine((err as Error).message)}` };
  }
}
