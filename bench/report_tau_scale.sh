#!/usr/bin/env bash
# What the TAU export (utils/report/sites/site_tau.c, DIR/tau/ at
# MPI_Finalize on rank 0) costs at N synthetic ranks: bench/report_tau_scale.c
# builds the job of a ring through the records' own reader and times
# sites_write_tau alone: wall, user and system seconds (a file per rank,
# on $BUILD's disk).
#   bench/report_tau_scale.sh [N...]      (default 4096 65536)
# Needs a configured build ($BUILD: site_fn.h is generated there).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
sizes=${*:-4096 65536}
r=$top/utils/report
work=$BUILD/bench/report_tau_scale
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
# shellcheck disable=SC2046
cc -O2 -Wall -Wextra -I"$r/render" -I"$r/common" -I"$r/collect" -I"$r/sites" -I"$BUILD/utils/report/sites" \
  "$top/bench/report_tau_scale.c" "$r/sites/site_tau.c" "$r/sites/site_job.c" "$r/sites/site_names.c" \
  "$r/sites/site_render.c" "$r/sites/site_figures.c" "$r/sites/site_findings.c" "$r/sites/site_json.c" "$r/sites/site_html.c" "$r/render/report_job.c" "$r/render/report_not_provided.c" "$r/render/report_stats.c" "$r/render/report_text.c" "$r/render/report_json.c" "$r/render/report_svg.c" "$r/render/report_write_file.c" "$r/render/report_units.c" "$r/render/report_kit.c" \
  "$r/render/report_matrix.c" "$r/common/report_env.c" "$r/render/report_html.c" "$r/render/report_overview.c" "$r/render/report_queues.c" \
  $(pkg-config --cflags --libs jansson libdw) -lm -o report_tau_scale || exit 1
printf '%-8s %8s %10s %10s %10s\n' ranks cells wall_s user_s sys_s
for n in $sizes; do
  rm -rf "out$n" && mkdir "out$n" || exit 1
  out=$(./report_tau_scale "$n" "$PWD/out$n") || exit 1
  [ "$(ls "out$n/tau" | wc -l)" = "$n" ] || { echo "$n ranks: $(ls "out$n/tau" | wc -l) files"; exit 1; }
  read -r ranks cells wall user sys <<<"$out"
  printf '%-8s %8s %10s %10s %10s\n' "$ranks" "$cells" "$wall" "$user" "$sys"
  rm -rf "out$n"
done
