// What a score plugin sees: the pod, the feasible nodes it scores, and the cluster around them.
import type { Node, Pod } from '../../shared/kinds.js';
import type { NamespaceLabels } from '../affinity-terms.js';
import type { NodeUsage } from '../resources.js';

export interface Candidate {
  node: Node;
  usage: NodeUsage;
}

export interface ScoreInput {
  pod: Pod;
  /** The nodes that passed every filter, in the order scores are returned. */
  feasible: Candidate[];
  /** Every node, feasible or not (pods on any node count for affinity and spread). */
  nodes: Node[];
  /** The pods bound to nodes. */
  placed: Pod[];
  namespaces: NamespaceLabels;
}

/** A score plugin: one normalised score (0..100) per feasible node, in order. */
export type ScorePlugin = (input: ScoreInput) => number[];
