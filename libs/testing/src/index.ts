// The test harness: everything of @gardener-ts/test-support, the local API server for a test file, and the envtest-like
// test environment with CRDs and nats-server.
export * from '@gardener-ts/test-support';
export { startTestCluster, type TestCluster } from '@gardener-ts/local-apiserver';
export { startTestEnvironment, type TestEnvironment, type TestEnvironmentOptions } from './environment.js';
export { startNatsServer, natsServerBinary, type NatsServer, type NatsServerOptions } from './nats-server.js';
export { loadCrds, installCrds, type CrdSource } from './crds.js';
