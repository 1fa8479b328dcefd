import { InvalidArgumentError, Option } from 'commander';

export function schemeOption(): Option {
  return new Option(
    '--scheme <scheme>',
    'what is signed: body (the spec) or timestamped ("<t>.<body>", as Stripe does)',
  )
    .default('body')
    .argParser((v) => {
      if (v !== 'body' && v !== 'timestamped') throw new InvalidArgumentError('expected body or timestamped');
      return v;
    });
}

export { collect } from '../shared/options.js';
