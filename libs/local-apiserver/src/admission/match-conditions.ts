// Admission webhook matchConditions (kube's webhook/matchconditions): CEL expressions over `object`, `oldObject`,
// `request` (the AdmissionRequest) and `authorizer`, evaluated before a webhook is called. Any false condition skips
// the webhook; errors with no false condition go to the webhook's failurePolicy (Fail: the request is refused with
// kube's 403, Ignore: the webhook is skipped). Also the create/update validation of the conditions (at most 64, unique
// qualified names, an expression that compiles to bool), worded as kube's field errors.
import { Environment } from '@marcbachmann/cel-js';
import { qualifiedNameErrors } from '@gardener-ts/api';
import { compile, firstLine, type Program } from '../cel/compile.js';
import { fn, registerKubernetesLibraries } from '../cel/kubernetes-libraries.js';
import { ApiError, errors } from '../api/errors.js';
import type { FieldProblem } from '../schema/types.js';
import type { Attributes, Decision } from '../auth/attributes.js';
import type { UserInfo } from '../server/context.js';
import type { WriteRequest } from '../server/pipeline.js';
import type { KubeObject } from '../storage/types.js';

export const MAX_MATCH_CONDITIONS = 64;

/** What the `authorizer` variable asks (the server's authorizer chain). */
export interface ConditionAuthorizer {
  authorize(a: Attributes): Promise<Decision> | Decision;
}

// ---- the `authorizer` CEL library (kube's library/authz.go): types and receiver functions ----

const T = {
  authorizer: 'kubernetes.authorization.Authorizer',
  path: 'kubernetes.authorization.PathCheck',
  group: 'kubernetes.authorization.GroupCheck',
  resource: 'kubernetes.authorization.ResourceCheck',
  decision: 'kubernetes.authorization.Decision',
} as const;

class AuthorizerValue {
  constructor(
    readonly authz: ConditionAuthorizer | undefined,
    readonly user: UserInfo,
    readonly requestResource: ResourceCheckValue,
  ) {}
}
class PathCheckValue {
  constructor(
    readonly parent: AuthorizerValue,
    readonly path: string,
  ) {}
}
class GroupCheckValue {
  constructor(
    readonly parent: AuthorizerValue,
    readonly group: string,
  ) {}
}
interface ResourceFields {
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}
class ResourceCheckValue {
  constructor(
    readonly parent: AuthorizerValue | undefined,
    readonly fields: ResourceFields,
  ) {}
  with(change: Partial<ResourceFields>): ResourceCheckValue {
    return new ResourceCheckValue(this.parent, { ...this.fields, ...change });
  }
}
class DecisionValue {
  constructor(
    readonly decision: Decision | undefined,
    readonly err: string,
  ) {}
}

async function decide(parent: AuthorizerValue | undefined, a: Attributes): Promise<DecisionValue> {
  if (!parent?.authz) return new DecisionValue(undefined, 'no authorizer');
  try {
    return new DecisionValue(await parent.authz.authorize(a), '');
  } catch (err) {
    return new DecisionValue(undefined, (err as Error).message);
  }
}

function createEnvironment(): Environment {
  const env = new Environment()
    .registerType(T.authorizer, { ctor: AuthorizerValue, fields: { requestResource: T.resource } })
    .registerType(T.path, { ctor: PathCheckValue, fields: {} })
    .registerType(T.group, { ctor: GroupCheckValue, fields: {} })
    .registerType(T.resource, { ctor: ResourceCheckValue, fields: {} })
    .registerType(T.decision, { ctor: DecisionValue, fields: {} })
    .registerVariable('object', 'dyn')
    .registerVariable('oldObject', 'dyn')
    .registerVariable({
      name: 'request',
      schema: {
        uid: 'string',
        kind: { group: 'string', version: 'string', kind: 'string' },
        resource: { group: 'string', version: 'string', resource: 'string' },
        subResource: 'string',
        requestKind: { group: 'string', version: 'string', kind: 'string' },
        requestResource: { group: 'string', version: 'string', resource: 'string' },
        requestSubResource: 'string',
        name: 'string',
        namespace: 'string',
        operation: 'string',
        userInfo: { username: 'string', uid: 'string', groups: 'list<string>', extra: 'map<string, list<string>>' },
        dryRun: 'bool',
        options: 'dyn',
      },
    })
    .registerVariable('authorizer', T.authorizer);
  fn(env, T.authorizer, 'path', ['string'], T.path, (a: AuthorizerValue, path: string) => new PathCheckValue(a, path));
  fn(
    env,
    T.authorizer,
    'group',
    ['string'],
    T.group,
    (a: AuthorizerValue, group: string) => new GroupCheckValue(a, group),
  );
  fn(
    env,
    T.authorizer,
    'serviceAccount',
    ['string', 'string'],
    T.authorizer,
    (a: AuthorizerValue, namespace: string, name: string) => {
      const user: UserInfo = {
        username: `system:serviceaccount:${namespace}:${name}`,
        groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
      };
      return new AuthorizerValue(a.authz, user, new ResourceCheckValue(undefined, a.requestResource.fields));
    },
  );
  fn(
    env,
    T.group,
    'resource',
    ['string'],
    T.resource,
    (g: GroupCheckValue, resource: string) =>
      new ResourceCheckValue(g.parent, {
        group: g.group,
        version: '*',
        resource,
        subresource: '',
        namespace: '',
        name: '',
      }),
  );
  fn(env, T.resource, 'subresource', ['string'], T.resource, (r: ResourceCheckValue, subresource: string) =>
    r.with({ subresource }),
  );
  fn(env, T.resource, 'namespace', ['string'], T.resource, (r: ResourceCheckValue, namespace: string) =>
    r.with({ namespace }),
  );
  fn(env, T.resource, 'name', ['string'], T.resource, (r: ResourceCheckValue, name: string) => r.with({ name }));
  fn(env, T.resource, 'check', ['string'], T.decision, (r: ResourceCheckValue, verb: string) =>
    decide(r.parent, {
      user: r.parent?.user ?? { username: '', groups: [] },
      kind: 'resource',
      resource: { ...r.fields, verb },
    }),
  );
  fn(env, T.path, 'check', ['string'], T.decision, (p: PathCheckValue, verb: string) =>
    decide(p.parent, { user: p.parent.user, kind: 'path', verb: verb.toLowerCase(), path: p.path }),
  );
  fn(env, T.decision, 'allowed', [], 'bool', (d: DecisionValue) => d.decision?.allowed === true);
  fn(env, T.decision, 'reason', [], 'string', (d: DecisionValue) => d.decision?.reason ?? '');
  fn(env, T.decision, 'errored', [], 'bool', (d: DecisionValue) => d.err !== '');
  fn(env, T.decision, 'error', [], 'string', (d: DecisionValue) => d.err);
  // kube's match-condition environment has the Kubernetes libraries too.
  return registerKubernetesLibraries(env);
}

let sharedEnv: Environment | undefined;
const env = () => (sharedEnv ??= createEnvironment());

type Compiled = Program;
const compiledCache = new Map<string, Compiled>();

/** Compiles an expression, or returns kube's compile-error detail (`compilation failed: ...`, `must evaluate to bool`). */
export function compileCondition(expression: string): { program?: Compiled; error?: string } {
  const cached = compiledCache.get(expression);
  if (cached) return { program: cached };
  const result = compile(env(), expression);
  if (!result.program) return { error: result.error };
  if (result.type !== 'bool') return { error: 'must evaluate to bool' };
  const program = result.program;
  if (compiledCache.size > 1000) compiledCache.clear();
  compiledCache.set(expression, program);
  return { program };
}

/** JSON numbers as CEL sees unstructured objects: integral values are ints. */
function celValue(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(celValue);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, celValue(v)]));
  return value;
}

/** The `request` variable: kube's AdmissionRequest, every field present (unset strings are ""). */
function admissionRequest(r: WriteRequest): Record<string, unknown> {
  const d = r.definition;
  const kind = { group: d.group, version: d.version, kind: d.kind };
  const resource = { group: d.group, version: d.version, resource: d.resource };
  const user = r.ctx.user;
  const optionsKind =
    r.operation === 'CREATE' ? 'CreateOptions' : r.operation === 'UPDATE' ? 'UpdateOptions' : 'DeleteOptions';
  return {
    uid: '',
    kind,
    resource,
    subResource: r.subresource,
    requestKind: kind,
    requestResource: resource,
    requestSubResource: r.subresource,
    name: r.name,
    namespace: d.namespaced ? r.namespace : '',
    operation: r.operation,
    userInfo: { username: user.username, uid: user.uid ?? '', groups: [...user.groups], extra: user.extra ?? {} },
    dryRun: r.ctx.dryRun,
    options: { apiVersion: 'meta.k8s.io/v1', kind: optionsKind },
  };
}

export type MatchResult = { matches: true } | { matches: false; failedCondition?: string } | { error: ApiError };

/** kube's matcher: any false condition skips; otherwise errors go to the failurePolicy (default Fail). */
export async function evaluateMatchConditions(
  webhook: KubeObject,
  r: WriteRequest,
  authz: ConditionAuthorizer | undefined,
): Promise<MatchResult> {
  const conditions: KubeObject[] = webhook.matchConditions ?? [];
  if (conditions.length === 0) return { matches: true };
  const d = r.definition;
  const requestResource = new ResourceCheckValue(undefined, {
    group: d.group,
    version: d.version,
    resource: d.resource,
    subresource: r.subresource,
    namespace: d.namespaced ? r.namespace : '',
    name: r.name,
  });
  const authorizer = new AuthorizerValue(authz, r.ctx.user, requestResource);
  (requestResource as { parent: AuthorizerValue | undefined }).parent = authorizer;
  const ctx = {
    object: r.operation === 'DELETE' ? null : celValue(r.object),
    oldObject: r.operation === 'CREATE' ? null : celValue(r.oldObject ?? null),
    request: admissionRequest(r),
    authorizer,
  };
  const failures: string[] = [];
  for (const condition of conditions) {
    const expression = String(condition.expression ?? '');
    const { program, error } = compileCondition(expression.trim());
    let value: unknown;
    try {
      if (!program) throw new Error(error);
      value = await program(ctx);
    } catch (err) {
      failures.push(`expression '${expression}' resulted in error: ${firstLine((err as Error).message)}`);
      continue;
    }
    if (value === false) return { matches: false, failedCondition: condition.name };
    if (value !== true)
      failures.push(`expression '${expression}' resulted in error: expected bool, got ${typeof value}`);
  }
  if (failures.length === 0) return { matches: true };
  if (webhook.failurePolicy === 'Ignore') return { matches: false };
  const message = failures.length === 1 ? failures[0] : `[${failures.join(', ')}]`;
  const qualified = d.group ? `${d.resource}.${d.group}` : d.resource;
  return {
    error: new ApiError(403, 'Forbidden', `${qualified}${r.name ? ` "${r.name}"` : ''} is forbidden: ${message}`, {
      name: r.name || undefined,
      group: d.group,
      kind: d.resource,
    }),
  };
}

// ---- validation of MutatingWebhookConfiguration / ValidatingWebhookConfiguration matchConditions ----

const quote = (v: string) => JSON.stringify(v);

function validateConditions(conditions: unknown, path: string): FieldProblem[] {
  if (!Array.isArray(conditions)) return [];
  const problems: FieldProblem[] = [];
  if (conditions.length > MAX_MATCH_CONDITIONS) {
    problems.push({
      field: path,
      reason: 'FieldValueTooMany',
      message: `Too many: ${conditions.length}: must have at most ${MAX_MATCH_CONDITIONS} items`,
    });
  }
  const seen = new Set<string>();
  conditions.forEach((c: KubeObject, i: number) => {
    const at = `${path}[${i}]`;
    const expression = typeof c?.expression === 'string' ? c.expression : '';
    const trimmed = expression.trim();
    if (!trimmed) problems.push({ field: `${at}.expression`, reason: 'FieldValueRequired', message: 'Required value' });
    else {
      const { error } = compileCondition(trimmed);
      if (error)
        problems.push({
          field: `${at}.expression`,
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${quote(trimmed)}: ${error}`,
        });
    }
    const name = typeof c?.name === 'string' ? c.name : '';
    if (!name) problems.push({ field: `${at}.name`, reason: 'FieldValueRequired', message: 'Required value' });
    else
      for (const msg of qualifiedNameErrors(name))
        problems.push({
          field: `${at}.name`,
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${quote(name)}: ${msg}`,
        });
    if (name) {
      if (seen.has(name))
        problems.push({
          field: `${at}.name`,
          reason: 'FieldValueDuplicate',
          message: `Duplicate value: ${quote(name)}`,
        });
      seen.add(name);
    }
  });
  return problems;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Validates the matchConditions of a webhook configuration on create and update (422 with kube's field paths). As in
 * kube, an update that leaves every webhook's conditions as they were (same number of webhooks, equal conditions at
 * each index) is not validated again, so stored configurations stay updatable.
 */
export function validateWebhookConfigurationMatchConditions(r: WriteRequest): void {
  const d = r.definition;
  if (
    d.group !== 'admissionregistration.k8s.io' ||
    (d.resource !== 'mutatingwebhookconfigurations' && d.resource !== 'validatingwebhookconfigurations')
  )
    return;
  if ((r.operation !== 'CREATE' && r.operation !== 'UPDATE') || r.subresource) return;
  const webhooks: KubeObject[] = Array.isArray(r.object.webhooks) ? r.object.webhooks : [];
  if (r.operation === 'UPDATE') {
    const old: KubeObject[] = Array.isArray(r.oldObject?.webhooks) ? r.oldObject.webhooks : [];
    if (
      old.length === webhooks.length &&
      old.every((w, i) => sameJson(w?.matchConditions, webhooks[i]?.matchConditions))
    )
      return;
  }
  const problems = webhooks.flatMap((webhook, i) =>
    validateConditions(webhook?.matchConditions, `webhooks[${i}].matchConditions`),
  );
  if (problems.length > 0) throw errors.invalid(d.kind, d.group, r.name || r.object.metadata?.name || '', problems);
}
