// How every gardener-local program runs: the CLI (cli.ts) and the local images' programs (images/*.ts) alike.
import * as nodeModule from 'node:module';

/**
 * Runs `main` with the process's arguments and exits with the code it resolves to (1 and the stack when it throws).
 * Node's compile cache keeps the compiled bundle across starts (in the OS temp dir unless NODE_COMPILE_CACHE says
 * where), so the many processes of a landscape start faster. (Node ≥ 22.1; the project's @types/node is older, hence
 * the cast.)
 *
 * node-fetch 2, under @kubernetes/client-node, parses every request URL with url.parse(), and Node 24 prints the
 * deprecation DEP0169 for it on the user's terminal. The URLs are ours (built with the WHATWG URL API); that one
 * warning is dropped, every other warning is printed as Node prints it.
 */
export function runProgram(name: string, main: (args: string[]) => Promise<number>): void {
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  process.removeAllListeners('warning');
  process.on('warning', (warning: Error & { code?: string }) => {
    if (warning.code === 'DEP0169') return;
    process.stderr.write(
      `(node:${process.pid}) ${warning.code ? `[${warning.code}] ` : ''}${warning.name}: ${warning.message}\n`,
    );
  });
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${name}: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
