// @gardener-ts/secrets-manager/testing: test doubles for code that uses the secrets manager.
export { FakeSecretsClient } from './fake-secrets-client.js';
