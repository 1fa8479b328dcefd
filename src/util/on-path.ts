import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Whether `command` is an executable in one of PATH's directories. */
export function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(delimiter).some((dir) => {
    if (!dir) return false;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
