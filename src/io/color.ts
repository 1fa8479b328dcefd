export type ColorSetting = 'auto' | 'always' | 'never';
export type ColorLevel = 0 | 1 | 2 | 3;

/** Decides colour from --no-color, NO_COLOR, FORCE_COLOR, the `color` setting and the terminal. */
export function colorLevel(options: {
  env: NodeJS.ProcessEnv;
  isTTY: boolean;
  noColorFlag?: boolean;
  setting?: ColorSetting;
}): ColorLevel {
  const { env } = options;
  if (options.noColorFlag) return 0;
  if (env.NO_COLOR) return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    if (force === '2' || force === '3') return Number(force) as ColorLevel;
    return 1;
  }
  if (options.setting === 'never') return 0;
  if (options.setting === 'always') return 2;
  if (!options.isTTY || env.TERM === 'dumb') return 0;
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  return env.TERM?.includes('256') ? 2 : 1;
}
