// @gardener-ts/providerlocal: gardener-extension-provider-local's logic: every extension kind for local mode, machines as local processes.
export {};
