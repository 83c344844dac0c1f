// @gardener-ts/admission-plugins: gardener-apiserver's strategies and admission plugins and gardener-admission-controller's handlers, as pure functions with webhook shells.
export {};
