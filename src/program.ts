import { Command, Help } from 'commander';
import { COMMANDS } from './commands/registry.js';
import { version } from './version.js';

/**
 * The global options whose value may be the next argument (`-p work`, `--timeout 5s`), by every
 * name, read from the root itself so a new one can not be forgotten here.
 */
function optionsWithValues(): Set<string> {
  const names = createRoot()
    .options.filter((o) => o.required || o.optional)
    .flatMap((o) => [o.short, o.long]);
  return new Set(names.filter((name) => name !== undefined));
}

/**
 * argv with the value of a global short option written after `=` (`-p=work`, as gh takes it) as
 * its own argument: commander would read "=work" as the value. Only before the command, whose
 * own options are its own.
 */
export function splitShortValues(argv: string[]): string[] {
  const withValues = optionsWithValues();
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--' || !arg.startsWith('-')) return [...out, ...argv.slice(i)];
    const short = /^(-[^-])=(.*)$/s.exec(arg);
    if (short && withValues.has(short[1]!)) out.push(short[1]!, short[2]!);
    else if (withValues.has(arg) && i + 1 < argv.length) out.push(arg, argv[++i]!);
    else out.push(arg);
  }
  return out;
}

/** The first operand of argv: the name of the command to run. */
export function commandName(argv: string[]): string | undefined {
  const withValues = optionsWithValues();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return argv[i + 1];
    if (!arg.startsWith('-')) return arg;
    if (withValues.has(arg)) i++;
  }
  return undefined;
}

export const ROOT_EXAMPLES = `
Examples:
  $ kb auth login --base-url https://kb.example.com     # store an API key (asked for, hidden)
  $ kb chat                                             # talk to the assistant
  $ kb threads list --status OPEN
  $ kb files list --status FAILED --ids | kb files delete --yes -
  $ kb threads send "$T" "What changed in v2?" --json | jq -r .aiResponse.content
  $ kb serve --demo --port 4010                         # the local service, no account needed

Learn more:
  kb <command> --help       help for a command
  kb help environment       environment variables
  kb help exit-codes        what each exit code means
  kb help formats           output formats for people and scripts`;

export function createRoot(): Command {
  return new Command('kb')
    .description('The command line for the Conversational AI and Knowledge Base Service')
    .version(version(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('-p, --profile <name>', 'use this profile (env KB_PROFILE)')
    .option('--base-url <url>', 'service URL (env KB_BASE_URL)')
    .option('--json', 'print JSON: data on stdout, errors as JSON on stderr')
    .option('--jsonl', 'print one JSON object per line')
    .option('--ids', 'print only ids, one per line')
    .option('--no-color', 'disable colour (also NO_COLOR)')
    .option('--debug', 'log each request and response to stderr (also KB_DEBUG=1)')
    .option('--timeout <duration>', 'request timeout, e.g. 30s or 5m (env KB_TIMEOUT)')
    .option('--retries <n>', 'retries for failed requests (default 2, env KB_RETRIES)')
    .option('--insecure', 'allow http:// to hosts other than loopback (the key is sent in clear)')
    .addHelpText('after', ROOT_EXAMPLES);
}

/** Builds the program; only the command named in argv (or all, when asked) is loaded in full. */
export async function buildProgram(argv: string[], options: { loadAll?: boolean } = {}): Promise<Command> {
  const program = createRoot();
  program.helpCommand(false);
  const wanted = commandName(argv);
  const target = wanted === 'help' ? commandName(argv.slice(argv.indexOf('help') + 1)) : wanted;
  for (const entry of COMMANDS) {
    const named = target !== undefined && (entry.name === target || entry.aliases?.includes(target));
    if (options.loadAll || named) {
      const command = (await entry.load()).default();
      program.addCommand(command, { hidden: entry.hidden });
    } else {
      const stub = new Command(entry.name).description(entry.summary).aliases(entry.aliases ?? []);
      program.addCommand(stub, { hidden: entry.hidden });
    }
  }
  const help = await import('./commands/help/index.js');
  program.addCommand(help.default(program));
  return program;
}

export interface TreeOutput {
  out: (s: string) => void;
  err: (s: string) => void;
  /** Told which command refused the command line, instead of commander printing why. */
  refused?: (command: Command) => void;
}

/**
 * Applies settings every command shares: exit instead of process.exit, output to our streams,
 * and help that lists the global options under each verb's own (as gh's INHERITED FLAGS).
 */
export function configureTree(command: Command, write: TreeOutput) {
  command.exitOverride();
  // One wording for help in every command's, as kb's own says it.
  command.helpOption('-h, --help', 'show help');
  if (command.parent && command.commands.length)
    command.helpCommand('help [command]', 'show help for a command');
  // kb suggests what was meant itself (usage-error.ts), by a command's name rather than an alias.
  command.showSuggestionAfterError(false);
  command.configureHelp({
    showGlobalOptions: true,
    // --version belongs to kb itself, not to each verb; a verb's own option of a global one's
    // name (files wait --timeout) is the one that verb reads, so the global one is not listed.
    visibleGlobalOptions(this: Help, cmd: Command) {
      const own = new Set(cmd.options.map((o) => o.long));
      return Help.prototype.visibleGlobalOptions
        .call(this, cmd)
        .filter((o) => o.long !== '--version' && !own.has(o.long));
    },
    // Every alias, not only the first: `get|view|show <id>`.
    subcommandTerm(this: Help, cmd: Command) {
      const term = Help.prototype.subcommandTerm.call(this, cmd);
      const more = cmd.aliases().slice(1);
      return more.length
        ? term.replace(`${cmd.name()}|${cmd.aliases()[0]}`, [cmd.name(), ...cmd.aliases()].join('|'))
        : term;
    },
  });
  const { refused } = write;
  command.configureOutput({
    writeOut: write.out,
    writeErr: write.err,
    ...(refused && { outputError: () => refused(command) }),
  });
  if (command.commands.length) {
    // `kb threads` alone asks for its help, as gh has it: on stdout, a success. Commander shows
    // it as an error (stderr, exit 1); it calls help({ error: true }) only for that.
    const help = command.help.bind(command);
    command.help = (() => help()) as Command['help'];
  }
  for (const sub of command.commands) configureTree(sub, write);
}
