// @gardener-ts/controllermanager: gardener-controller-manager's logic: the garden-side controllers.
export {};
