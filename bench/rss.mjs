// Preloaded by the benchmark in a separate, untimed run: prints the peak RSS (kB) at exit.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `\n__KB_MAXRSS__ ${process.resourceUsage().maxRSS}\n`);
});
