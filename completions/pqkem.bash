# bash completion for pqkem(1): commands, each command's options, algorithm names (from
# `pqkem list`), formats, private key forms, implementations, random sources, HPKE KDFs and
# AEADs, and file names.
# Installed as share/bash-completion/completions/pqkem; or source it from ~/.bashrc.

# The algorithm names of the pqkem being completed (first column of `pqkem list`), cached.
_pqkem_algorithms() {
  if [[ -z ${_pqkem_algorithm_cache-} ]]; then
    _pqkem_algorithm_cache=$("${1:-pqkem}" list 2>/dev/null | awk 'NR == 1 { next } /^\(/ || /^$/ { exit } { print $1 }')
    [[ -n $_pqkem_algorithm_cache ]] ||
      _pqkem_algorithm_cache="ML-KEM-512 ML-KEM-768 ML-KEM-1024 ntruhps2048509 ntruhps2048677 ntruhps4096821 ntruhrss701 X-Wing X25519MLKEM768"
  fi
  printf '%s\n' "$_pqkem_algorithm_cache"  # newline- or space-separated; compgen -W splits both
}

_pqkem() {
  local cur prev words cword
  if declare -F _init_completion >/dev/null; then
    _init_completion -n = || return
  else
    cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
  fi

  local commands="keygen encaps decaps seal open pubkey convert info list kat bench"
  local cmd="" i
  for ((i = 1; i < cword; i++)); do
    if [[ " $commands " == *" ${words[i]} "* ]]; then
      cmd=${words[i]}
      break
    fi
  done

  if [[ -z $cmd ]]; then
    if [[ $cur == -* ]]; then
      mapfile -t COMPREPLY < <(compgen -W "--help --version" -- "$cur")
    else
      mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur")
    fi
    return 0
  fi

  local engine="--impl --ntt-plan"
  local opts
  case $cmd in
    keygen) opts="--algorithm -a --pk --sk --format --sk-form --coins --rng --force --json $engine" ;;
    encaps) opts="--algorithm -a --pk --ct --ss --format --coins --rng --force --json $engine" ;;
    decaps) opts="--algorithm -a --sk --ct --ss --format --force --json $engine" ;;
    seal) opts="--algorithm -a --pk --in --out --info --psk --psk-id --kdf --aead --raw --rng --force --json $engine" ;;
    open) opts="--algorithm -a --sk --in --out --info --psk --psk-id --kdf --aead --raw --force --json $engine" ;;
    pubkey) opts="--algorithm -a --sk --pk --format --force $engine" ;;
    convert) opts="--algorithm -a --in --out --format --sk-form --force $engine" ;;
    info) opts="--algorithm -a --json" ;;
    list) opts="--json" ;;
    kat) opts="--algorithm -a --count $engine" ;;
    bench) opts="--algorithm -a --impl --iterations --rounds --json --kernels --ntt-plans --ntt-plan --rng --coins --baseline --fail-on-regression" ;;
  esac
  opts+=" --help"

  case $prev in
    -a | --algorithm)
      mapfile -t COMPREPLY < <(compgen -W "$(_pqkem_algorithms "${words[0]}")" -- "$cur")
      return 0
      ;;
    --format)
      case $cmd in
        encaps | decaps) mapfile -t COMPREPLY < <(compgen -W "bin hex" -- "$cur") ;;
        *) mapfile -t COMPREPLY < <(compgen -W "bin hex pem der" -- "$cur") ;;
      esac
      return 0
      ;;
    --sk-form)
      mapfile -t COMPREPLY < <(compgen -W "seed expanded both" -- "$cur")
      return 0
      ;;
    --impl)
      if [[ $cmd == bench ]]; then
        mapfile -t COMPREPLY < <(compgen -W "auto portable avx2 avx512 all" -- "$cur")
      else
        mapfile -t COMPREPLY < <(compgen -W "auto portable avx2 avx512" -- "$cur")
      fi
      return 0
      ;;
    --rng)
      mapfile -t COMPREPLY < <(compgen -W "system openssl" -- "$cur")
      return 0
      ;;
    --coins)
      if [[ $cmd == bench ]]; then
        mapfile -t COMPREPLY < <(compgen -W "random fixed" -- "$cur")
      fi
      return 0  # keygen, encaps: hex or @FILE
      ;;
    --kdf)
      mapfile -t COMPREPLY < <(compgen -W "HKDF-SHA256 HKDF-SHA384 HKDF-SHA512 SHAKE128 SHAKE256 TurboSHAKE128 TurboSHAKE256" -- "$cur")
      return 0
      ;;
    --aead)
      mapfile -t COMPREPLY < <(compgen -W "AES-256-GCM AES-128-GCM ChaCha20-Poly1305" -- "$cur")
      return 0
      ;;
    --info | --psk-id)
      return 0  # text
      ;;
    --count | --iterations | --rounds | --ntt-plan)
      return 0  # a number or a plan: nothing to offer
      ;;
    --pk | --sk | --ct | --ss | --in | --out | --baseline | --psk)
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      compopt -o filenames 2>/dev/null || true
      return 0
      ;;
  esac

  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
  elif [[ $cmd == info ]]; then
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    compopt -o filenames 2>/dev/null || true
  fi
  return 0
}

complete -F _pqkem pqkem
