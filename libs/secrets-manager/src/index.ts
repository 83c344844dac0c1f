// @gardener-ts/secrets-manager: Gardener's secrets manager: CAs, certificates, keys and tokens generated, persisted in Secrets, rotated and cleaned up.
export {};
