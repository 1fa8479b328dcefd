/** A reply with one of each block a streamed reply is drawn by: heading, paragraph with inline
 * Markdown and a link, list, fenced code, table. */
export const REPLY = [
  '# Plans and limits',
  '',
  'The **Growth** plan costs `29` dollars per agent; see [the pricing page](https://example.com/pricing).',
  '',
  '- Basic: one workspace',
  '- Growth: **five** workspaces',
  '- Enterprise: as many as you need',
  '',
  '```js',
  "const plan = await kb.plans.get('growth');",
  'console.log(plan.price); // 29',
  '```',
  '',
  '| Plan | Price |',
  '|------|-------|',
  '| Basic | 0 |',
  '| Growth | 29 |',
  '',
  'Ask the **sales team** for more.',
].join('\n');
