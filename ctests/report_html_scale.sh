#!/usr/bin/env bash
# report.html from 2 to 1024 ranks and 1 to 60 events, without MPI
# (run by ctests/run.sh as unit/report-html): utils/report/tests/test_html.c renders
# jobs of 2, 4, 256 and 1024 ranks (each as report.json and report.html from
# the same data) and checks the page's text; headless Chromium then opens
# each page (ctests/report_html_check.py): no script error, a heatmap cell
# per event and rank (per group of 4 ranks at 1024, as the page says) equal
# to report.json, the summary table equal to report.json, a screenshot.
#   report_html_scale.sh WORKDIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
utils=$here/../utils
work=${1:-.}
mkdir -p "$work" && cd "$work" || exit 1
cc -Wall -Wextra -Werror -I"$utils/report/render" "$utils/report/tests/test_html.c" "$utils/report/render/report_html.c" "$utils/report/render/report_overview.c" \
  "$utils/report/render/report_job.c" "$utils/report/render/report_not_provided.c" "$utils/report/render/report_stats.c" "$utils/report/render/report_text.c" "$utils/report/render/report_json.c" "$utils/report/render/report_svg.c" "$utils/report/render/report_write_file.c" "$utils/report/render/report_units.c" "$utils/report/render/report_matrix.c" "$utils/report/render/report_kit.c" "$utils/report/render/report_queues.c" $(pkg-config --cflags --libs jansson) \
  -lm -o test_html && rm -rf html && ./test_html html || exit 1
command -v chromium >/dev/null || { echo "SKIP chromium is not installed (scripts/deps.sh installs it)"; exit 77; }
rc=0
for n in 2 4 256 1024; do
  echo "--- $n ranks"
  extra=()
  [ "$n" != 2 ] && extra=(--expect-senders)
  timeout 180 python3 "$here/report_html_check.py" html/$n html/$n/page.png "${extra[@]}" || rc=1
done
exit $rc
