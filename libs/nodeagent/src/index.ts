// @gardener-ts/nodeagent: gardener-node-agent's logic: applies the OperatingSystemConfig on a machine; lease, token, node, health controllers.
export {};
