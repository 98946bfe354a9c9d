// Preloaded into a CLI under test (NODE_OPTIONS=--require, tests/support/sigintProbe.ts): each write to its stdout
// says on stderr how many SIGINT listeners the process had at that moment.
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  const first = String(chunk).split('\n')[0];
  process.stderr.write(`[sigint-probe] ${process.listenerCount('SIGINT')} at: ${first}\n`);
  return write(chunk, ...rest);
};
