/**
 * Child process of the bench's hardening section: a process with nothing to do, watching its own event
 * loop (turn-watch.ts). What it meets while the simulator works (its turns held up by a busy machine) is
 * the floor the simulator's own turns are read against. Answers 'watch' (start) and 'turns' (the summary).
 */
import { TurnWatch } from './turn-watch.js';

const watch = new TurnWatch();
process.send?.({ idle: true });
process.on('message', (m) => {
  if (m === 'stop') process.exit(0);
  if (m === 'watch') {
    watch.start();
    process.send?.(0);
  }
  if (m === 'turns') process.send?.(watch.stop());
});
