// @gardener-ts/flow: Gardener's task flows: a DAG of tasks with dependencies, bounded parallelism, retries, progress reporting.
export {};
