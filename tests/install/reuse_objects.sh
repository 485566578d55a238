#!/usr/bin/env bash
# reuse_objects.sh MAIN_BUILD SHARED_BUILD COMPILER ARG...
# The compiler launcher (CMAKE_CXX_COMPILER_LAUNCHER) of install.shared's library-only shared
# build. The library's objects are position-independent with hidden visibility in every
# configuration (lib/CMakeLists.txt), so the shared build compiles each source with the main
# build's command. Where MAIN_BUILD holds an up-to-date object made by exactly that command
# (compile_commands.json; the build directory's path is the only difference allowed), it is copied
# instead of compiled a second time. Anything else (another flag, an object older than one of its
# dependencies, a generated header that differs) runs the compiler. Each reuse is logged to
# SHARED_BUILD/reused-objects.txt.
set -uo pipefail
main=$1 shared=$2
shift 2

compile() { exec "$@"; }

obj="" depfile=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case ${args[i]} in
    -o) obj=${args[i + 1]} ;;
    -MF) depfile=${args[i + 1]} ;;
  esac
done
[[ -n $obj && -n $depfile && $PWD == "$shared"* ]] || compile "$@"

# This compile's command as the main build would have run it: paths mapped, no depfile options.
want=()
for ((i = 0; i < ${#args[@]}; i++)); do
  case ${args[i]} in
    -MD) ;;
    -MT | -MF) i=$((i + 1)) ;;
    *) want+=("${args[i]//"$shared"/"$main"}") ;;
  esac
done
main_dir=$main${PWD#"$shared"}

# The main build's command for the same object, from its compile database (JSON strings:
# \" and \\ unescaped, then split as the shell splits it).
line=$(grep -F "\"command\": " "$main/compile_commands.json" | grep -F -- " -o $obj -c " | head -n 1)
[[ -n $line ]] || compile "$@"
line=${line#*\"command\": \"}
line=${line%\",}
line=${line//\\\"/\"}
line=${line//\\\\/\\}
eval "have=($line)" 2>/dev/null || compile "$@"
[[ "${have[*]}" == "${want[*]}" && ${#have[@]} -eq ${#want[@]} ]] || compile "$@"

# Up to date: every dependency is older than the object, and a dependency generated in the main
# build (export.hpp) has the same content here.
main_obj=$main_dir/$obj main_dep=$main_dir/$depfile
[[ -f $main_obj && -f $main_dep ]] || compile "$@"
deps=$(sed -e '1s/^[^:]*://' -e 's/\\$//' "$main_dep")
for d in $deps; do
  [[ -e $d && ! $d -nt $main_obj ]] || compile "$@"
  if [[ $d == "$main"/* ]]; then
    cmp -s "$d" "$shared${d#"$main"}" || compile "$@"
  fi
done
mkdir -p "$(dirname "$obj")" || compile "$@"
cp "$main_obj" "$obj" && sed "s|$main/|$shared/|g" "$main_dep" >"$depfile" || compile "$@"
echo "$obj" >>"$shared/reused-objects.txt"
