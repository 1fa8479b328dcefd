import type { Candidates, CompletionNode } from './spec.js';

const HEADER = '# Generated from the kb command tree by `npm run completions`; do not edit.';

function words(c: Candidates | undefined): string {
  return c === undefined ? '' : Array.isArray(c) ? c.join(' ') : c;
}

/** Flags that take a value, anywhere in the tree (so the path scan can skip their values). */
function valueFlags(nodes: CompletionNode[]): string[] {
  return [...new Set(nodes.flatMap((n) => Object.keys(n.values)).filter((f) => f.startsWith('-')))].sort();
}

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function renderBash(nodes: CompletionNode[]): string {
  const lines = [
    HEADER,
    '# Install: source this file, or copy it to ~/.local/share/bash-completion/completions/kb',
    '',
  ];
  lines.push(
    'declare -gA _kb_children=(',
    ...nodes.map((n) => `  [${quote(n.path || '_')}]=${quote(n.children.join(' '))}`),
    ')',
  );
  lines.push(
    'declare -gA _kb_flags=(',
    ...nodes.map((n) => `  [${quote(n.path || '_')}]=${quote(n.flags.join(' '))}`),
    ')',
  );
  lines.push(
    'declare -gA _kb_values=(',
    ...nodes.flatMap((n) =>
      Object.entries(n.values).map(([f, v]) => `  [${quote(`${n.path || '_'}|${f}`)}]=${quote(words(v))}`),
    ),
    ')',
  );
  lines.push(
    'declare -gA _kb_args=(',
    ...nodes.filter((n) => n.args).map((n) => `  [${quote(n.path || '_')}]=${quote(words(n.args))}`),
    ')',
  );
  lines.push(`_kb_value_flags=${quote(valueFlags(nodes).join(' '))}`);
  lines.push(`
_kb_offer() {
  local spec="$1" cur="$2"
  case "$spec" in
    @file) COMPREPLY=($(compgen -f -- "$cur")) ;;
    @*) COMPREPLY=($(compgen -W "$(kb __complete "\${spec#@}" 2>/dev/null | cut -f1)" -- "$cur")) ;;
    *) COMPREPLY=($(compgen -W "$spec" -- "$cur")) ;;
  esac
}

_kb() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  local cmdpath="" key="_" i w
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    if [[ "$w" == -* ]]; then
      [[ " $_kb_value_flags " == *" $w "* ]] && ((i++))
      continue
    fi
    if [[ " \${_kb_children[$key]} " == *" $w "* ]]; then
      cmdpath="\${cmdpath:+$cmdpath }$w"
      key="$cmdpath"
    fi
  done
  if [[ -n "\${_kb_values[$key|$prev]+x}" ]]; then
    _kb_offer "\${_kb_values[$key|$prev]}" "$cur"
    return
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "\${_kb_flags[$key]}" -- "$cur"))
    return
  fi
  if [[ -n "\${_kb_children[$key]}" ]]; then
    COMPREPLY=($(compgen -W "\${_kb_children[$key]}" -- "$cur"))
    return
  fi
  [[ -n "\${_kb_args[$key]+x}" ]] && _kb_offer "\${_kb_args[$key]}" "$cur"
}
complete -F _kb kb
`);
  return lines.join('\n');
}

export function renderZsh(nodes: CompletionNode[]): string {
  const lines = [
    '#compdef kb',
    HEADER,
    '# Install: copy to a directory in $fpath as _kb, then run compinit',
    '',
  ];
  lines.push('typeset -gA _kb_children _kb_described _kb_flags _kb_values _kb_args');
  lines.push(
    '_kb_described=(',
    ...nodes
      .filter((n) => n.described.length)
      .map(
        (n) =>
          `  ${quote(n.path || '_')} ${quote(n.described.map((d) => d.replace(/:/g, '\\:').replace('\t', ':')).join('\n'))}`,
      ),
    ')',
  );
  lines.push(
    '_kb_children=(',
    ...nodes.map((n) => `  ${quote(n.path || '_')} ${quote(n.children.join(' '))}`),
    ')',
  );
  lines.push(
    '_kb_flags=(',
    ...nodes.map((n) => `  ${quote(n.path || '_')} ${quote(n.flags.join(' '))}`),
    ')',
  );
  lines.push(
    '_kb_values=(',
    ...nodes.flatMap((n) =>
      Object.entries(n.values).map(([f, v]) => `  ${quote(`${n.path || '_'}|${f}`)} ${quote(words(v))}`),
    ),
    ')',
  );
  lines.push(
    '_kb_args=(',
    ...nodes.filter((n) => n.args).map((n) => `  ${quote(n.path || '_')} ${quote(words(n.args))}`),
    ')',
  );
  lines.push(`_kb_value_flags=(${valueFlags(nodes).join(' ')})`);
  lines.push(`
_kb_offer() {
  local spec="$1"
  case "$spec" in
    @file) _files ;;
    @*)
      local -a ids
      ids=("\${(@f)$(kb __complete "\${spec#@}" 2>/dev/null | tr '\\t' ':')}")
      (( \${#ids} )) && [[ -n "\${ids[1]}" ]] && _describe 'value' ids ;;
    *) compadd -- \${=spec} ;;
  esac
}

_kb() {
  local cmdpath="" key="_" i w
  for ((i = 2; i < CURRENT; i++)); do
    w="\${words[i]}"
    if [[ "$w" == -* ]]; then
      (( \${_kb_value_flags[(Ie)$w]} )) && ((i++))
      continue
    fi
    if [[ " \${_kb_children[$key]} " == *" $w "* ]]; then
      cmdpath="\${cmdpath:+$cmdpath }$w"
      key="$cmdpath"
    fi
  done
  local prev="\${words[CURRENT-1]}" cur="\${words[CURRENT]}"
  if (( \${+_kb_values[$key|$prev]} )); then
    _kb_offer "\${_kb_values[$key|$prev]}"
    return
  fi
  if [[ "$cur" == -* ]]; then
    compadd -- \${=_kb_flags[$key]}
    return
  fi
  if [[ -n "\${_kb_children[$key]}" ]]; then
    local -a commands
    commands=("\${(@f)_kb_described[$key]}")
    _describe 'command' commands
    return
  fi
  (( \${+_kb_args[$key]} )) && _kb_offer "\${_kb_args[$key]}"
}

if [[ "$funcstack[1]" == "_kb" ]]; then _kb "$@"; else compdef _kb kb; fi
`);
  return lines.join('\n');
}

export function renderFish(nodes: CompletionNode[]): string {
  const lines = [HEADER, '# Install: copy to ~/.config/fish/completions/kb.fish', ''];
  lines.push(`set -g __kb_value_flags ${valueFlags(nodes).join(' ')}`);
  lines.push(`
function __kb_path --description 'the kb command path typed so far'
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l path _
    set -l skip 0
    for w in $tokens
        if test $skip -eq 1
            set skip 0
            continue
        end
        if string match -q -- '-*' $w
            contains -- $w $__kb_value_flags; and set skip 1
            continue
        end
        set -l children (string split ' ' -- (__kb_children $path))
        if contains -- $w $children
            if test $path = _
                set path $w
            else
                set path "$path $w"
            end
        end
    end
    echo $path
end

function __kb_candidates --description 'completion candidates for kb'
    set -l path (__kb_path)
    set -l tokens (commandline -opc)
    set -l prev $tokens[-1]
    set -l cur (commandline -ct)
    set -l spec (__kb_values "$path|$prev")
    if test -n "$spec"
        __kb_offer $spec
        return
    end
    if string match -q -- '-*' "$cur"
        string split ' ' -- (__kb_flags $path)
        return
    end
    set -l children (__kb_children $path)
    if test -n "$children"
        __kb_described $path
        return
    end
    set -l args (__kb_args $path)
    test -n "$args"; and __kb_offer $args
end

function __kb_offer
    switch $argv[1]
        case @file
            __fish_complete_path (commandline -ct)
        case '@*'
            kb __complete (string sub -s 2 -- $argv[1]) 2>/dev/null
        case '*'
            string split ' ' -- $argv
    end
end
`);
  const table = (name: string, entries: [string, string][]) => {
    lines.push(`function ${name}`, '    switch "$argv[1]"');
    for (const [k, v] of entries) lines.push(`        case ${quote(k)}`, `            echo ${quote(v)}`);
    lines.push('    end', 'end', '');
  };
  table(
    '__kb_children',
    nodes.map((n) => [n.path || '_', n.children.join(' ')]),
  );
  table(
    '__kb_described',
    nodes.filter((n) => n.described.length).map((n) => [n.path || '_', n.described.join('\n')]),
  );
  table(
    '__kb_flags',
    nodes.map((n) => [n.path || '_', n.flags.join(' ')]),
  );
  table(
    '__kb_values',
    nodes.flatMap((n) =>
      Object.entries(n.values).map(([f, v]): [string, string] => [`${n.path || '_'}|${f}`, words(v)]),
    ),
  );
  table(
    '__kb_args',
    nodes.filter((n) => n.args).map((n) => [n.path || '_', words(n.args)]),
  );
  lines.push("complete -c kb -f -a '(__kb_candidates)'");
  return `${lines.join('\n')}\n`;
}

export const RENDERERS = { bash: renderBash, zsh: renderZsh, fish: renderFish } as const;
export const FILES = { bash: 'kb.bash', zsh: '_kb', fish: 'kb.fish' } as const;
