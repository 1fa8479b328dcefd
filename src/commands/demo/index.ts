import { Command } from 'commander';
import { Context } from '../../factory.js';

const SAMPLE_QUESTION = 'How much does the Growth plan cost per agent?';

export default function demoCommand(): Command {
  return new Command('demo')
    .description('Chat against a throwaway local demo workspace (what `npm start` runs)')
    .option('--raw', 'print replies without Markdown rendering')
    .addHelpText(
      'after',
      `
Starts the local service with its demo workspace in this process, then opens the chat.
Your own profiles and history are never read or written. Not on a terminal, it asks one
sample question, prints the cited answer and exits.

Examples:
  $ npm start
  $ kb demo`,
    )
    .action(async (opts: { raw?: boolean }, cmd: Command) => {
      const ctx = Context.for(cmd);
      const { io } = ctx;
      const { startServer } = await import('../../server/index.js');
      const server = await startServer({ port: 0, demo: true, indexDelayMs: 0 });
      try {
        await server.service.indexer.idle();
        const client = await ctx.client({ baseUrl: server.url, apiKey: server.keys.demo! });
        if (!io.stdinIsTTY || !io.stdoutIsTTY) {
          const thread = await client.threads.create({ title: 'Demo question' }, ctx.signal);
          const exchange = await client.threads.send(thread.id, SAMPLE_QUESTION, ctx.signal);
          ctx.output.text(`Q: ${SAMPLE_QUESTION}\nA: ${exchange.aiResponse.content}\n`);
          return;
        }
        const { startChat } = await import('../chat/start.js');
        await startChat(ctx, client, {
          raw: opts.raw,
          greeting: [
            `kb demo · local service at ${server.url} · workspace "demo" (Orbitdesk, a made-up help-desk product)`,
            `Try: "${SAMPLE_QUESTION}", "What does error E-4102 mean?", /threads. Ctrl-D to leave.`,
            // Its answers point to kb search and kb files list, which reach it only so.
            'Other kb commands (kb search, kb files list) reach it while this runs, after:',
            `export KB_BASE_URL=${server.url}`,
            `export KB_API_KEY=${server.keys.demo!}`,
          ],
          // The demo workspace is gone when this process ends: nothing to resume.
          resumeCommand: null,
        });
        await client.close();
      } finally {
        await server.close();
      }
    });
}
