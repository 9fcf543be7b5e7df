// PLACEHOLDER (written by the foundation so `npm run build` works): the sandbox issue replaces
// this file with the real command line (`--port`, `--demo`, `--manual-clock`, `--public-url`).
console.error('The sandbox is not built yet (src/sandbox/main.ts is a placeholder).');
process.exitCode = 1;
