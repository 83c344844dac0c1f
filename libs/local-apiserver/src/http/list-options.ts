// kube-apiserver's validation of list and watch options (apimachinery's meta/internalversion/validation), run before
// a list or watch is served: the combinations of resourceVersion, resourceVersionMatch, continue and
// sendInitialEvents it forbids, answered with its 422 `ListOptions.meta.k8s.io "" is invalid: ...` and one cause per
// problem. Assumes the WatchList feature (on in kube 1.35), so sendInitialEvents itself is allowed on a watch.
import { ApiError } from '../api/errors.js';
import type { FieldProblem } from '../schema/types.js';

const MATCH = 'resourceVersionMatch';

export function validateListOptions(query: URLSearchParams, watch: boolean): void {
  const problems = watch ? watchProblems(query) : listProblems(query);
  if (problems.length === 0) return;
  const parts = problems.map((p) => `${p.field}: ${p.message}`);
  const message = `ListOptions.meta.k8s.io "" is invalid: ${parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`}`;
  throw new ApiError(422, 'Invalid', message, {
    group: 'meta.k8s.io',
    kind: 'ListOptions',
    causes: problems.map((p) => ({ reason: p.reason, message: p.message, field: p.field })),
  });
}

function listProblems(query: URLSearchParams): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const match = query.get(MATCH) ?? '';
  const rv = query.get('resourceVersion') ?? '';
  if (match) {
    if (!rv) problems.push(forbidden(MATCH, 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (query.get('continue'))
      problems.push(forbidden(MATCH, 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan')
      problems.push(notSupported(MATCH, match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && rv === '0')
      problems.push(forbidden(MATCH, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (query.has('sendInitialEvents'))
    problems.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return problems;
}

function watchProblems(query: URLSearchParams): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const match = query.get(MATCH) ?? '';
  const sendInitialEvents = query.has('sendInitialEvents');
  if (sendInitialEvents && match !== 'NotOlderThan') {
    problems.push(forbidden(MATCH, 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
  }
  if (match) {
    if (!sendInitialEvents)
      problems.push(
        forbidden(MATCH, 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'),
      );
    if (match !== 'NotOlderThan') problems.push(notSupported(MATCH, match, ['NotOlderThan']));
    if (query.get('continue'))
      problems.push(forbidden(MATCH, 'resourceVersionMatch is forbidden when continue is provided'));
  }
  return problems;
}

function forbidden(field: string, detail: string): FieldProblem {
  return { field, reason: 'FieldValueForbidden', message: `Forbidden: ${detail}` };
}

function notSupported(field: string, value: string, supported: string[]): FieldProblem {
  const values = supported.map((v) => JSON.stringify(v)).join(', ');
  return {
    field,
    reason: 'FieldValueNotSupported',
    message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${values}`,
  };
}
