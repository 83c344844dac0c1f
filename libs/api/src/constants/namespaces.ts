// Well-known namespaces and names.

export const GardenNamespace = 'garden';
/** Prefix of project namespaces: project "dev" owns namespace "garden-dev" by default. */
export const ProjectNamespacePrefix = 'garden-';
/** Seed taint that restricts a seed to shoots in the garden namespace. */
export const SeedTaintProtected = 'seed.gardener.cloud/protected';
