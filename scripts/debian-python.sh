# Sourced by scripts/test.sh and ctests/run.sh: the generators and the
# checks run Debian's python3, the one scripts/deps.sh installs their
# packages for.  Where PATH names another python3 first (a pyenv shim, a
# bash script that starts pyenv: about a second of CPU per start, against
# a few hundredths for the interpreter itself, and the tests start it
# hundreds of times in a run), a directory with python3 naming /usr/bin/python3 is
# put in front of PATH.  DIR is that directory (made if needed).
#   . scripts/debian-python.sh; debian_python DIR
debian_python() {
  [ -x /usr/bin/python3 ] || return 0
  [ "$(readlink -f "$(command -v python3)")" = "$(readlink -f /usr/bin/python3)" ] && return 0
  mkdir -p "$1" && ln -sfn /usr/bin/python3 "$1/python3" || return 0
  case ":$PATH:" in *":$1:"*) ;; *) PATH=$1:$PATH ;; esac
  export PATH
}
