#!/bin/sh
# Makes the documentation and option parsing of papi-mpit-report from
# utils/report/report-options.tsv (the format is described at its top).
#
#   gen-report-options.sh script TEMPLATE   the script, to stdout: fills the
#       lines @USAGE_OPTIONS@, @USAGE_VARIABLES@, "# @OPTION_CASES@" and
#       "# @OPTION_CHECKS@" (a check_TYPE VAR 'OPTION' line per typed row)
#   gen-report-options.sh man TEMPLATE      the man page, to stdout: fills
#       the lines @OPTIONS@ and @ENVIRONMENT@
#   gen-report-options.sh readme FILE       rewrites the table between
#       "<!-- report-options: generated" and "<!-- report-options: end -->"
#   gen-report-options.sh check SRCDIR      fails if SRCDIR/doc/report.md's table
#       is not the data's, or if the sources read a PAPI_MPIT_REPORT_*
#       variable the data lacks (or the data names one nobody reads)
#
# POSIX sh and awk (Debian's mawk): it runs at build time, where there may be
# no Python.  REPORT_OPTIONS names another data file.
set -eu
me=gen-report-options.sh
here=$(cd "$(dirname "$0")" && pwd)
data=${REPORT_OPTIONS:-$here/report-options.tsv}
die() { echo "$me: $*" >&2; exit 1; }

# fill MODE TEMPLATE: TEMPLATE with its marker lines replaced, to stdout
fill() {
  awk -v mode="$1" -v data="$data" '
    function bad(msg) { printf "%s:%d: %s\n", data, FNR, msg > "/dev/stderr"; err = 1; exit 1 }
    function has(x) { return x != "-" }
    # the data: row fields in short[], long[], ...; man-page lines in man[]
    FNR == NR {
      if ($0 ~ /^#/ || $0 == "") next
      if (substr($0, 1, 1) == "\t") {
        if (!n) bad("a continuation line before any row")
        man[n] = man[n] substr($0, 2) "\n"
        next
      }
      if (split($0, f, "\t") != 9) bad("expected 9 tab-separated fields")
      n++
      short[n] = f[1]; long[n] = f[2]; arg[n] = f[3]; var[n] = f[4]
      value[n] = f[5]; reader[n] = f[6]; type[n] = f[7]; dflt[n] = f[8]; help[n] = f[9]
      if (reader[n] !~ /^(rank|script|test)$/) bad("reader must be rank, script or test")
      if (type[n] !~ /^(bool|ms|count|family|-)$/) bad("type must be bool, ms, count, family or -")
      if (has(type[n]) && !has(var[n])) bad("a type without a variable")
      if (has(var[n]) && var[n] !~ /^PAPI_MPIT_REPORT_[A-Z_]+$/) bad("not a PAPI_MPIT_REPORT_ variable: " var[n])
      if (has(value[n]) && value[n] !~ /^[A-Za-z0-9_.,:-]+$/) bad("a value the script could not set unquoted: " value[n])
      if (flag(n) && has(var[n]) && !has(arg[n]) && !has(value[n])) bad("a flag without argument needs a value")
      next
    }
    function flag(i) { return has(short[i]) || has(long[i]) }
    function shown(i) { return reader[i] != "test" }
    # "-e, --events LIST"
    function flags(i, s) {
      s = has(short[i]) ? short[i] : ""
      if (has(long[i])) s = s (s != "" ? ", " : "    ") long[i]
      return s (has(arg[i]) ? " " arg[i] : "")
    }
    # VAR, VAR=1 for a flag without argument, VAR=N for a variable alone
    function setting(i) {
      if (has(value[i])) return var[i] "=" value[i]
      if (!flag(i) && has(arg[i])) return var[i] "=" arg[i]
      return var[i]
    }

    # ---- usage text, inside an unquoted here-document
    function heredoc(s) { gsub(/[\\$`]/, "\\\\&", s); return s }
    # LABEL then TEXT wrapped from column 24, lines up to 79 characters
    function usage_entry(label, text, line, w, nw, k) {
      line = label
      if (length(line) > 22) { print heredoc(line); line = "" }
      nw = split(text, w, " ")
      for (k = 1; k <= nw; k++) {
        if (line != "" && length(line) < 24) line = sprintf("%-24s%s", line, w[k])
        else if (line == "") line = sprintf("%24s%s", "", w[k])
        else if (length(line) + 1 + length(w[k]) > 79) { print heredoc(line); line = sprintf("%24s%s", "", w[k]) }
        else line = line " " w[k]
      }
      if (line != "") print heredoc(line)
    }
    function usage_options(i, note) {
      for (i = 1; i <= n; i++) {
        if (!flag(i) || !shown(i)) continue
        note = has(var[i]) ? setting(i) : ""
        if (has(dflt[i])) note = note (note != "" ? "; " : "") "default: " dflt[i]
        usage_entry("  " flags(i), help[i] (note != "" ? " (" note ")" : ""))
      }
    }
    function usage_variables(i) {
      for (i = 1; i <= n; i++) {
        if (flag(i) || !has(var[i]) || !shown(i)) continue
        usage_entry("  " setting(i), help[i] (has(dflt[i]) ? " (default: " dflt[i] ")" : ""))
      }
    }

    # ---- case arms of the option loop, indented like the marker
    function arm(indent, pattern, body) { printf "%s%-17s %s\n", indent, pattern ")", body }
    function option_cases(indent, i, pat, export) {
      for (i = 1; i <= n; i++) {
        if (!flag(i) || !has(var[i])) continue
        pat = has(short[i]) ? short[i] : ""
        if (has(long[i])) pat = pat (pat != "" ? "|" : "") long[i]
        # what only the script reads stays out of the program environment
        export = reader[i] == "rank" ? " export " var[i] ";" : ""
        # a checked value given empty on the command line is a mistake (in
        # the environment, empty is unset)
        if (has(arg[i]) && has(type[i])) {
          arm(indent, pat, "need_value \"$@\"; " var[i] "=$2;" export " shift 2 ;;")
          if (has(long[i])) arm(indent, long[i] "=*", "need_value \"${1%%=*}\" \"${1#*=}\"; " var[i] "=${1#*=};" export " shift ;;")
        } else if (has(arg[i])) {
          arm(indent, pat, "need_arg \"$@\"; " var[i] "=$2;" export " shift 2 ;;")
          if (has(long[i])) arm(indent, long[i] "=*", var[i] "=${1#*=};" export " shift ;;")
        } else {
          arm(indent, pat, var[i] "=" value[i] ";" export " shift ;;")
          # --tau=maybe: a flag without a value, not an unknown option
          if (has(long[i])) arm(indent, long[i] "=*", "no_value \"${1%%=*}\" " var[i] " ;;")
        }
      }
    }

    # ---- checks of the values, after the option loop: check_TYPE VAR "HOW",
    # HOW being how the user sets it (the option and the variable, or the variable)
    function option_checks(indent, i, how) {
      for (i = 1; i <= n; i++) {
        if (!has(type[i])) continue
        how = flag(i) ? (has(long[i]) ? long[i] : short[i]) " (" var[i] ")" : var[i]
        printf "%scheck_%s %s '\''%s'\''\n", indent, type[i], var[i], how
      }
    }

    # ---- man page
    function roff(s) { gsub(/\\/, "\\e", s); if (s ~ /^[.'\'']/) s = "\\&" s; return s }
    function dash(s) { gsub(/-/, "\\-", s); return s }
    function paragraph(i) {
      # \- for a hyphen: no line break inside a path or a name
      printf "%s", man[i] != "" ? man[i] : dash(roff(help[i])) "\n"
      if (has(dflt[i])) print dash(roff("Default: " dflt[i] "."))
    }
    # .TP tags such as: .BR \-e ", " \-\-events " \fILIST\fR   (\fBVAR\fR)"
    function man_options(i, tag, rest) {
      for (i = 1; i <= n; i++) {
        if (!flag(i) || !shown(i)) continue
        rest = has(arg[i]) ? " \\fI" arg[i] "\\fR" : ""
        if (has(var[i])) rest = rest "   (\\fB" setting(i) "\\fR)"
        if (has(short[i]) && has(long[i])) tag = dash(short[i]) " \", \" " dash(long[i])
        else tag = dash(has(short[i]) ? short[i] : long[i])
        print ".TP"
        print (rest != "" || has(short[i]) && has(long[i]) ? ".BR " : ".B ") tag (rest != "" ? " \"" rest "\"" : "")
        paragraph(i)
      }
    }
    function man_environment(i) {
      for (i = 1; i <= n; i++) {
        if (flag(i) || !has(var[i]) || !shown(i)) continue
        print ".TP"
        print ".B " var[i]
        paragraph(i)
      }
    }

    # ---- the Markdown table of doc/report.md
    function md(s) { gsub(/\|/, "\\|", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
    function readme_table(i) {
      print "| option | environment | |"
      print "|---|---|---|"
      for (i = 1; i <= n; i++) {
        if (!has(var[i]) || !shown(i)) continue
        printf "| %s | `%s` | %s |\n", flag(i) ? "`" md(flags(i)) "`" : "", setting(i),
          md(help[i]) (has(dflt[i]) ? " (default: " md(dflt[i]) ")" : "")
      }
    }

    # ---- the template: marker lines replaced, the rest copied
    {
      line = $0; sub(/^[ \t]+/, "", line)
      indent = substr($0, 1, length($0) - length(line))
      if (mode == "script" && line == "@USAGE_OPTIONS@") { usage_options(); next }
      if (mode == "script" && line == "@USAGE_VARIABLES@") { usage_variables(); next }
      if (mode == "script" && line == "# @OPTION_CASES@") { option_cases(indent); filled++; next }
      if (mode == "script" && line == "# @OPTION_CHECKS@") { option_checks(indent); filled++; next }
      if (mode == "man" && line == "@OPTIONS@") { man_options(); filled++; next }
      if (mode == "man" && line == "@ENVIRONMENT@") { man_environment(); next }
      if (mode == "readme" && skipping) {
        if (line ~ /^<!-- report-options: end -->/) { print; skipping = 0 }
        next
      }
      print
      if (mode == "readme" && line ~ /^<!-- report-options: generated/) { readme_table(); filled++; skipping = 1 }
    }
    END {
      if (err) exit 1
      if (skipping) { print FILENAME ": no <!-- report-options: end --> marker" > "/dev/stderr"; exit 1 }
      if (!filled) { print FILENAME ": no marker for " mode > "/dev/stderr"; exit 1 }
    }
  ' "$data" "$2"
}

# the Markdown file that holds the table of options, under SRCDIR
table_doc=doc/report.md

# check SRCDIR: the table in doc/report.md, and the variables the sources read
check() {
  src=$1 status=0 tmp=${TMPDIR:-/tmp}/$me.$$
  trap 'rm -f "$tmp"' EXIT
  fill readme "$src/$table_doc" > "$tmp" || return 1
  if ! cmp -s "$tmp" "$src/$table_doc"; then
    diff -u "$src/$table_doc" "$tmp" || :
    echo "$table_doc's table of options differs from utils/report/report-options.tsv; fix with:"
    echo "  (cd $src && sh utils/report/gen-report-options.sh readme $table_doc)"
    status=1
  fi
  # used: "NAME" literals in the C sources, $NAME or ${NAME in the script
  used=$(cd "$src/utils/report" && { grep -ho '"PAPI_MPIT_REPORT_[A-Z_]*"' ./interpose/*.[ch] ./hang/*.[ch] ./collect/*.[ch] \
            ./sites/*.[ch] ./render/*.[ch] ./common/*.[ch] | tr -d '"'
          grep -o '\${\{0,1\}PAPI_MPIT_REPORT_[A-Z_]*' papi-mpit-report.in | tr -d '${'; } | sort -u)
  declared=$(awk -F '\t' '!/^#/ && $1 != "" && $4 != "-" { print $4 }' "$data" | sort -u)
  for v in $used; do
    echo "$declared" | grep -qx "$v" || { echo "$v is read by utils/ but not in $data"; status=1; }
  done
  for v in $declared; do
    echo "$used" | grep -qx "$v" || { echo "$v is in $data but nothing in utils/ reads it"; status=1; }
  done
  return $status
}

[ $# -eq 2 ] || die "usage: $me script|man TEMPLATE, $me readme FILE, $me check SRCDIR"
case $1 in
  script|man) fill "$1" "$2" ;;
  readme)
    tmp=$2.tmp.$$
    fill readme "$2" > "$tmp" || { rm -f "$tmp"; exit 1; }
    if cmp -s "$tmp" "$2"; then rm -f "$tmp"; else mv "$tmp" "$2"; fi ;;
  check) check "$2" ;;
  *) die "unknown mode $1" ;;
esac
