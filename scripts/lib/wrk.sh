# Shared by the benchmark scripts that drive wrk with scripts/bench/wrk-bodies.lua (source it).
#
#   wrk_bodies FILE OUT
#     The first 5,000 puzzles of FILE as /solve bodies, one JSON body a line, in OUT.
#   wrk_result URL CONNECTIONS SECONDS BODIES [COMMAND PREFIX...]
#     One wrk run (1 thread for 1 connection, else 2), prints wrk-bodies.lua's RESULT line.
#     The prefix (e.g. `taskset -c 0`) runs wrk.
#   result_field NAME RESULT
#     One field of a RESULT line (rps, p50_ms, requests, statuses...).
#   ok_rps RESULT
#     200 answers per second: a shed request (503) is not throughput.
#   median
#     The median of the numbers on stdin (separated by spaces or lines).

wrk_bodies() {
  head -n 5000 "$1" | awk '{ printf "{\"board\":\"%s\"}\n", $0 }' >"$2"
}

wrk_result() {
  local url=$1 connections=$2 secs=$3 bodies=$4
  shift 4
  local threads=$(( connections < 2 ? 1 : 2 ))
  "$@" wrk -t "$threads" -c "$connections" -d "${secs}s" --timeout 5s -s scripts/bench/wrk-bodies.lua \
    "$url" -- "$bodies" | grep '^RESULT'
}

result_field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }

ok_rps() {
  awk -v rps="$(result_field rps "$1")" -v n="$(result_field requests "$1")" \
      -v statuses="$(result_field statuses "$1")" 'BEGIN {
    k = split(statuses, parts, ",")
    ok = 0
    for (i = 1; i <= k; i++) if (parts[i] ~ /^200=/) ok = substr(parts[i], 5)
    printf "%.0f\n", n ? rps * ok / n : 0 }'
}

median() {
  tr ' ' '\n' | grep . | sort -g |
    awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
