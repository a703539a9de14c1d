// `npm start`: the desktop app where Electron is installed; otherwise the headless service (same core,
// same job: quotes through the /v1 API), after saying why in one paragraph.
import { spawn, spawnSync } from 'node:child_process';
import { ELECTRON_MISSING, findElectronBinary } from './electron-runtime.mjs';

const electron = findElectronBinary();
const run = (cmd, args) => {
  const child = spawn(cmd, args, { stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 0));
};

if (electron) {
  const build = spawnSync(process.execPath, [process.env.npm_execpath ?? 'npm', 'run', '-s', 'build'], {
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
  run(electron, ['.', ...process.argv.slice(2)]);
} else {
  console.error(`${ELECTRON_MISSING}\n`);
  // What `npm run serve` runs: the built host, built first if dist/hosts/ is missing or stale.
  run(process.execPath, ['scripts/run-host.mjs', 'serve', ...process.argv.slice(2)]);
}
