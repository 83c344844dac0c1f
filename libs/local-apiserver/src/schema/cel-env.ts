// The CEL environment of CRD validation rules (x-kubernetes-validations): `self` and `oldSelf`, the standard CEL
// functions and macros of @marcbachmann/cel-js (has, size, string functions, all/exists/exists_one/map/filter,
// matches, optional types) plus the Kubernetes libraries of ../cel/kubernetes-libraries.ts.
// Missing: the ip/cidr, format, semver and authz libraries, cel-go's extended strings (`replace`, `format`, ...),
// timestamps/durations for `format: date-time`/`duration` fields (they are plain strings here), cost estimation and
// budgets, and typed field checking at compile time (`self` is dyn: unknown fields fail at runtime with `no such key`).
import { Environment } from '@marcbachmann/cel-js';
import { compile, firstLine, type CompileResult, type Program } from '../cel/compile.js';
import { registerKubernetesLibraries } from '../cel/kubernetes-libraries.js';

function createEnvironment(): Environment {
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false })
    .registerVariable('self', 'dyn')
    .registerVariable('oldSelf', 'dyn');
  return registerKubernetesLibraries(env);
}

let sharedEnv: Environment | undefined;
/** The (shared, lazily built) environment of validation rules. */
export const ruleEnvironment = (): Environment => (sharedEnv ??= createEnvironment());

const cache = new Map<string, CompileResult>();

/** Compiles an expression once (cached by its text): the program and its checked type, or kube's compile-error detail. */
export function compileExpression(expression: string): CompileResult {
  const cached = cache.get(expression);
  if (cached) return cached;
  const result = compile(ruleEnvironment(), expression);
  if (cache.size > 5000) cache.clear();
  cache.set(expression, result);
  return result;
}

/** Whether an expression refers to the variable `name` (outside string literals). */
export function refersTo(expression: string, name: string): boolean {
  const code = expression.replace(/'''[\s\S]*?'''|"""[\s\S]*?"""|'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"/g, '""');
  return new RegExp(`(^|[^A-Za-z0-9_.])${name}($|[^A-Za-z0-9_])`).test(code);
}

export { firstLine, type Program };
