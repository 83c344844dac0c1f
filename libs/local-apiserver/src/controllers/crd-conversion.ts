// Validation of a CRD's spec.conversion, as apiextensions-apiserver's validateCustomResourceConversion. kube validates
// its internal type, so the field paths are the internal ones: `spec.conversion.webhookClientConfig` and
// `spec.conversion.conversionReviewVersions` (for v1's `webhook.clientConfig` and `webhook.conversionReviewVersions`).
import { dns1035LabelErrors } from '@gardener-ts/api';
import type { FieldProblem } from '../schema/types.js';
import type { KubeObject } from '../storage/types.js';

const PATH = 'spec.conversion';
/** The ConversionReview versions the server knows, sorted as kube lists them in its message. */
const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];

const goString = (v: unknown) => JSON.stringify(String(v));

export function validateCRDConversion(crd: KubeObject): FieldProblem[] {
  const conversion = crd.spec?.conversion;
  if (conversion === undefined || conversion === null) return [];
  const problems: FieldProblem[] = [];
  const strategy = conversion.strategy;
  if (strategy === undefined || strategy === '') {
    problems.push({ field: `${PATH}.strategy`, reason: 'FieldValueRequired', message: 'Required value' });
  } else if (strategy !== 'None' && strategy !== 'Webhook') {
    problems.push({
      field: `${PATH}.strategy`,
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${goString(strategy)}: supported values: "None", "Webhook"`,
    });
  }
  const webhook = conversion.webhook;
  const clientConfig = webhook?.clientConfig;
  const reviewVersions: unknown[] = Array.isArray(webhook?.conversionReviewVersions)
    ? webhook.conversionReviewVersions
    : [];
  const clientPath = `${PATH}.webhookClientConfig`;
  const versionsPath = `${PATH}.conversionReviewVersions`;
  if (strategy === 'Webhook') {
    if (crd.spec?.preserveUnknownFields === true) {
      problems.push({
        field: `${PATH}.strategy`,
        reason: 'FieldValueInvalid',
        message: `Invalid value: "Webhook": must be None if spec.preserveUnknownFields is true`,
      });
    }
    if (!clientConfig) {
      problems.push({
        field: clientPath,
        reason: 'FieldValueRequired',
        message: 'Required value: required when strategy is set to Webhook',
      });
    } else {
      const hasUrl = clientConfig.url !== undefined && clientConfig.url !== null;
      const hasService = clientConfig.service !== undefined && clientConfig.service !== null;
      if (hasUrl === hasService) {
        problems.push({
          field: clientPath,
          reason: 'FieldValueRequired',
          message: 'Required value: exactly one of url or service is required',
        });
      } else if (hasUrl) {
        problems.push(...validateUrl(String(clientConfig.url), `${clientPath}.url`));
      } else {
        problems.push(...validateService(clientConfig.service, `${clientPath}.service`));
      }
    }
    problems.push(...validateReviewVersions(reviewVersions, versionsPath));
  } else {
    if (clientConfig)
      problems.push({
        field: clientPath,
        reason: 'FieldValueForbidden',
        message: 'Forbidden: should not be set when strategy is not set to Webhook',
      });
    if (reviewVersions.length > 0)
      problems.push({
        field: versionsPath,
        reason: 'FieldValueForbidden',
        message: 'Forbidden: should not be set when strategy is not set to Webhook',
      });
  }
  return problems;
}

function validateReviewVersions(versions: unknown[], path: string): FieldProblem[] {
  if (versions.length === 0) return [{ field: path, reason: 'FieldValueRequired', message: 'Required value' }];
  const problems: FieldProblem[] = [];
  if (versions.length > 10)
    problems.push({
      field: path,
      reason: 'FieldValueTooMany',
      message: `Too many: ${versions.length}: must have at most 10 items`,
    });
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    const s = String(v);
    if (seen.has(s))
      problems.push({
        field: `${path}[${i}]`,
        reason: 'FieldValueDuplicate',
        message: `Duplicate value: ${goString(s)}`,
      });
    seen.add(s);
    for (const message of dns1035LabelErrors(s))
      problems.push({
        field: `${path}[${i}]`,
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${goString(s)}: ${message}`,
      });
  });
  if (!versions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(String(v)))) {
    problems.push({
      field: path,
      reason: 'FieldValueInvalid',
      message: `Invalid value: []string{${versions.map(goString).join(', ')}}: must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`,
    });
  }
  return problems;
}

/** kube's ValidateWebhookURL (forceHttps): an absolute https URL without user info, query or fragment. */
function validateUrl(raw: string, path: string): FieldProblem[] {
  const invalid = (why: string): FieldProblem[] => [
    { field: path, reason: 'FieldValueInvalid', message: `Invalid value: ${goString(raw)}: ${why}` },
  ];
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return invalid('host must be specified');
  }
  if (url.protocol !== 'https:') return invalid("'https' is the only allowed URL scheme");
  if (!url.hostname) return invalid('host must be specified');
  if (url.username || url.password) return invalid('user information is not permitted in the URL');
  if (url.hash) return invalid('fragments are not permitted in the URL');
  if (url.search) return invalid('query parameters are not permitted in the URL');
  return [];
}

/** kube's ValidateWebhookService: name and namespace required, a valid path and port. */
function validateService(service: KubeObject, path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!service?.name)
    problems.push({
      field: `${path}.name`,
      reason: 'FieldValueRequired',
      message: 'Required value: service name is required',
    });
  if (!service?.namespace)
    problems.push({
      field: `${path}.namespace`,
      reason: 'FieldValueRequired',
      message: 'Required value: service namespace is required',
    });
  const port = service?.port;
  if (port !== undefined && port !== null && !(Number.isInteger(port) && port >= 1 && port <= 65535)) {
    problems.push({
      field: `${path}.port`,
      reason: 'FieldValueInvalid',
      message: `Invalid value: ${port}: port is not valid: must be between 1 and 65535, inclusive`,
    });
  }
  const p = service?.path;
  if (p !== undefined && p !== null && p !== '' && !String(p).startsWith('/')) {
    problems.push({
      field: `${path}.path`,
      reason: 'FieldValueInvalid',
      message: `Invalid value: ${goString(p)}: must start with a '/'`,
    });
  }
  return problems;
}
