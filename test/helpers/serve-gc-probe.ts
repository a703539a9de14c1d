// `serve` for the memory suites: the same entry point, started with --expose-gc, plus one test-only signal.
// On SIGUSR2 it collects all garbage and prints `gc-probe rss=<bytes> heap=<bytes>` on stderr, so a suite
// bounds what the process retains rather than garbage V8 has not collected yet (RSS read straight after a load
// varied by +23 to +53 MB run to run on the same build). Production code has no such hook.
export {};

// Plain gc(): Node 20's gc({ type: 'major', execution: 'sync' }) left a dropped 180 MB array in the heap.
const gc = (globalThis as { gc?: () => void }).gc;

process.on('SIGUSR2', () => {
  if (typeof gc !== 'function') {
    process.stderr.write('gc-probe unavailable: start node with --expose-gc\n');
    return;
  }
  // Twice: the first pass runs finalizers that free what the second one collects.
  gc();
  gc();
  const { rss, heapUsed } = process.memoryUsage();
  process.stderr.write(`gc-probe rss=${rss} heap=${heapUsed}\n`);
});

await import('../../core/cli/serve');
