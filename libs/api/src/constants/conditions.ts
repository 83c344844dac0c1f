// Condition and constraint types written to `status.conditions` / `status.constraints`.

export const ConditionStatus = {
  True: 'True',
  False: 'False',
  Unknown: 'Unknown',
  Progressing: 'Progressing',
} as const;
export type ConditionStatus = (typeof ConditionStatus)[keyof typeof ConditionStatus];

export const ShootConditionType = {
  APIServerAvailable: 'APIServerAvailable',
  ControlPlaneHealthy: 'ControlPlaneHealthy',
  ObservabilityComponentsHealthy: 'ObservabilityComponentsHealthy',
  EveryNodeReady: 'EveryNodeReady',
  SystemComponentsHealthy: 'SystemComponentsHealthy',
} as const;

export const ShootConstraintType = {
  HibernationPossible: 'HibernationPossible',
  MaintenancePreconditionsSatisfied: 'MaintenancePreconditionsSatisfied',
  CACertificateValiditiesAcceptable: 'CACertificateValiditiesAcceptable',
  CRDsWithProblematicConversionWebhooks: 'CRDsWithProblematicConversionWebhooks',
  ManualInPlaceWorkersUpdated: 'ManualInPlaceWorkersUpdated',
  ReadyForMigration: 'ReadyForMigration',
  DualStackNodesMigrationReady: 'DualStackNodesMigrationReady',
} as const;

export const SeedConditionType = {
  GardenletReady: 'GardenletReady',
  BackupBucketsReady: 'BackupBucketsReady',
  ExtensionsReady: 'ExtensionsReady',
  SeedSystemComponentsHealthy: 'SeedSystemComponentsHealthy',
  EmergencyStopShootReconciliations: 'EmergencyStopShootReconciliations',
} as const;

export const SeedConstraintType = {
  ManagedResourcesHonored: 'ManagedResourcesHonored',
} as const;

export const ControllerInstallationConditionType = {
  Valid: 'Valid',
  Installed: 'Installed',
  Healthy: 'Healthy',
  Progressing: 'Progressing',
  Required: 'Required',
} as const;

export const ManagedSeedConditionType = {
  ShootReconciled: 'ShootReconciled',
  SeedRegistered: 'SeedRegistered',
} as const;

export const ManagedResourceConditionType = {
  ResourcesApplied: 'ResourcesApplied',
  ResourcesHealthy: 'ResourcesHealthy',
  ResourcesProgressing: 'ResourcesProgressing',
} as const;

export const GardenConditionType = {
  VirtualGardenAPIServerAvailable: 'VirtualGardenAPIServerAvailable',
  RuntimeComponentsHealthy: 'RuntimeComponentsHealthy',
  VirtualComponentsHealthy: 'VirtualComponentsHealthy',
  ObservabilityComponentsHealthy: 'ObservabilityComponentsHealthy',
  Reconciled: 'Reconciled',
} as const;

export const BastionConditionType = {
  Ready: 'BastionReady',
} as const;
