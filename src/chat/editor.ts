import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Opens $VISUAL or $EDITOR (default vi) on an empty file and returns what was saved. */
export async function editInEditor(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const editor = env.VISUAL || env.EDITOR || 'vi';
  const dir = mkdtempSync(join(tmpdir(), 'kb-chat-'));
  const file = join(dir, 'message.md');
  writeFileSync(file, '', { mode: 0o600 });
  try {
    // The editor command may carry arguments ("code --wait"); the file is passed separately.
    const result = spawnSync('sh', ['-c', `${editor} "$1"`, 'sh', file], { stdio: 'inherit' });
    if (result.status !== 0) return undefined;
    return readFileSync(file, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
