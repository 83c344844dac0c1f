// Replaced at build time with the release version (tsup `define`); source runs report a dev version.
export const VERSION: string = process.env.GARDENER_TS_VERSION ?? '0.0.0-dev';
