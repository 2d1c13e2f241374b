# bash completion of the Pilgrim tools (pilgrim-dump, -stats, -diff, -verify,
# -check, -export, -proxygen, -gen-wrappers, -cc, -cxx). The options come
# from the tool's own --help, so they cannot drift from it: a word starting
# with '-' completes to the options the help lists, the value of an option
# the help spells `--opt=a|b|c` or `--opt a|b|c` to those words, anything else
# to file names (*.pilgrim and folders where the tool reads a trace).
# cmake --install puts it in share/bash-completion/completions, once per tool.

_pilgrim_tool() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} tool=${COMP_WORDS[0]}
  local help name="" value=""
  help=$("$tool" --help 2>/dev/null) || return
  # The option whose value is being typed: --opt=V (one word, or three when
  # '=' breaks words), or --opt V.
  if [[ $cur == = ]]; then
    name=$prev
  elif [[ $prev == = && COMP_CWORD -ge 2 ]]; then
    name=${COMP_WORDS[COMP_CWORD-2]} value=$cur
  elif [[ $cur == --*=* ]]; then
    name=${cur%%=*} value=${cur#*=}
  elif [[ $prev == -* ]]; then
    name=$prev value=$cur
  fi
  if [[ -n $name ]]; then
    local values
    values=$(printf '%s\n' "$help" | sed -n "s/^  ${name}[= ]\([^ ]*|[^ ]*\).*/\1/p" | head -n 1)
    if [[ -n $values ]]; then
      COMPREPLY=($(compgen -W "${values//|/ }" -- "$value"))
      [[ $cur == --*=* ]] && COMPREPLY=("${COMPREPLY[@]/#/$name=}")
      return
    fi
  fi
  case $cur in
  -*)
    # Every option the help lists: "  -o, --output FILE", "  --gaps=a|b".
    local options
    options=$(printf '%s\n' "$help" | sed -n 's/^  \(-[^ =,]*\)\(, \(--[^ =]*\)\)\{0,1\}.*/\1 \3/p')
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
    ;;
  *)
    case $tool in
    *pilgrim-cc | *pilgrim-cxx | *pilgrim-gen-wrappers) COMPREPLY=($(compgen -f -- "$cur")) ;;
    *) COMPREPLY=($(compgen -f -X '!*.pilgrim' -- "$cur") $(compgen -d -- "$cur")) ;;
    esac
    ;;
  esac
}
complete -o filenames -F _pilgrim_tool pilgrim-dump pilgrim-stats pilgrim-diff pilgrim-verify \
  pilgrim-check pilgrim-export pilgrim-proxygen pilgrim-gen-wrappers pilgrim-cc pilgrim-cxx
