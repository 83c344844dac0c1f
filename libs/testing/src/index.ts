// The test harness: everything of @gardener-ts/test-support plus the local API server for a test file.
export * from '@gardener-ts/test-support';
export { startTestCluster, type TestCluster } from '@gardener-ts/local-apiserver';
