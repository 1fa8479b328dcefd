import { Command } from 'commander';
import createCommand from './create.js';
import deleteCommand from './delete.js';
import getCommand from './get.js';
import listCommand from './list.js';
import listenCommand from './listen.js';
import signCommand from './sign.js';
import triggerCommand from './trigger.js';
import verifyCommand from './verify.js';

export default function webhooksCommand(): Command {
  return new Command('webhooks')
    .alias('webhook')
    .description('Register webhooks; sign, verify, listen for and forward events')
    .addCommand(createCommand())
    .addCommand(listCommand())
    .addCommand(getCommand())
    .addCommand(deleteCommand())
    .addCommand(verifyCommand())
    .addCommand(signCommand())
    .addCommand(listenCommand())
    .addCommand(triggerCommand())
    .addHelpText(
      'after',
      `
Deliveries carry Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, raw body)>.
Secrets are read from files (--secret-file), from the profile (--webhook ID, saved by
create --save-secret) or from KB_WEBHOOK_SECRET; never from an argument.

Examples:
  $ kb webhooks create --url https://hooks.example.com/kb --event file.indexed --save-secret
  $ kb webhooks listen --webhook wh_123 --forward-to http://localhost:3000/webhooks
  $ kb webhooks verify --header "$SIG" --payload-file body.json --secret-file secret.txt`,
    );
}
