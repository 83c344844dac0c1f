// @gardener-ts/extensions: The extension SDK: write a Gardener extension (provider) in TypeScript.
export {};
