// The builder of a flow (Gardener's `flow.Graph`): tasks are added by name with their dependencies, then compiled
// into an executable `Flow`. Unlike Gardener (which panics in `Add` on a dependency not added yet), tasks may be
// added in any order; `compile()` rejects unknown dependencies and cycles with an error naming the tasks.
import { GraphValidationError } from './errors.js';
import { Flow } from './flow.js';
import type { Plan, PlanTask } from './scheduler.js';
import { flattenTaskIds, type Task, type TaskFn, type TaskId, type TaskIds } from './task.js';
import { retryUntilTimeout } from './taskfn.js';

/** A named set of tasks with dependencies, compiled into a `Flow`. */
export class Graph {
  private readonly tasks = new Map<TaskId, { task: Task; dependencies: TaskId[] }>();

  /** A new empty graph; the name appears in errors and progress descriptions ("Starting <name>"). */
  constructor(readonly name: string) {}

  /** Adds a task and returns its id for use as a dependency. A second task with the same name is rejected. */
  add(task: Task): TaskId {
    if (this.tasks.has(task.name)) {
      throw new GraphValidationError(`flow "${this.name}": task "${task.name}" already exists`, [task.name]);
    }
    const dependencies = flattenTaskIds(task.dependencies);
    this.tasks.set(task.name, { task, dependencies });
    return task.name;
  }

  /**
   * Adds every task of a group with the group's dependencies and skip condition added to each (Gardener's
   * `Graph.AddGroup`); returns the ids of the group's tasks, to be used as one dependency.
   */
  addGroup(tasks: readonly Task[], options: { dependencies?: TaskIds; skipIf?: boolean } = {}): TaskId[] {
    const groupDependencies = flattenTaskIds(options.dependencies);
    return tasks.map((task) =>
      this.add({
        ...task,
        dependencies: [...flattenTaskIds(task.dependencies), ...groupDependencies],
        skipIf: Boolean(task.skipIf) || Boolean(options.skipIf),
      }),
    );
  }

  /** The number of tasks. */
  get size(): number {
    return this.tasks.size;
  }

  /** Validates the graph and returns the executable flow. */
  compile(): Flow {
    for (const [id, { dependencies }] of this.tasks) {
      for (const dependency of dependencies) {
        if (!this.tasks.has(dependency)) {
          throw new GraphValidationError(`flow "${this.name}": task "${id}" depends on unknown task "${dependency}"`, [
            id,
            dependency,
          ]);
        }
      }
    }
    const order = this.topologicalOrder();
    const fns = new Map<TaskId, TaskFn>();
    const planTasks: PlanTask[] = order.map((id) => {
      const { task, dependencies } = this.tasks.get(id)!;
      fns.set(id, task.retryUntilTimeout ? retryUntilTimeout(task.fn, task.retryUntilTimeout) : task.fn);
      return { id, dependencies, skip: Boolean(task.skipIf) };
    });
    const plan: Plan = { name: this.name, tasks: planTasks };
    return new Flow(plan, fns);
  }

  // Kahn's algorithm, taking ready tasks in insertion order so the plan is deterministic.
  private topologicalOrder(): TaskId[] {
    const ids = [...this.tasks.keys()];
    const placed = new Set<TaskId>();
    const order: TaskId[] = [];
    let progressed = true;
    while (order.length < ids.length && progressed) {
      progressed = false;
      for (const id of ids) {
        if (placed.has(id)) continue;
        if (this.tasks.get(id)!.dependencies.every((d) => placed.has(d))) {
          placed.add(id);
          order.push(id);
          progressed = true;
        }
      }
    }
    if (order.length < ids.length) {
      const cycle = this.findCycle(ids.filter((id) => !placed.has(id)));
      throw new GraphValidationError(
        `flow "${this.name}": dependency cycle: ${cycle.map((c) => `"${c}"`).join(' -> ')}`,
        cycle,
      );
    }
    return order;
  }

  // Walks dependencies from an unplaced task until a task repeats; every unplaced task has an unplaced dependency.
  private findCycle(unplaced: TaskId[]): TaskId[] {
    const remaining = new Set(unplaced);
    const path: TaskId[] = [];
    const index = new Map<TaskId, number>();
    let current = unplaced[0];
    while (!index.has(current)) {
      index.set(current, path.length);
      path.push(current);
      current = this.tasks.get(current)!.dependencies.find((d) => remaining.has(d))!;
    }
    // path holds dependants before their dependencies; report in execution direction (dependency -> dependant).
    return [...path.slice(index.get(current)!), current].reverse();
  }
}
