// @gardener-ts/gardenlet-controllers: gardenlet's logic: the agent of one seed (seed side and shoot flows).
export {};
